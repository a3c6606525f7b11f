/** What the web UI browser tests need from a running engine, real or stand-in. */
export interface EngineHarness {
  /** Printed so a run says what it tested against. */
  source: string;
  baseUrl: string;
  token: string;
  stateGet(key: string): unknown;
  /** Run count of an automation as the engine keeps it. */
  runs(name: string): number;
  setMqttConnected(connected: boolean): Promise<void>;
  /** Writes an info entry attributed to porch-light. */
  log(msg: string): void;
  stop(): Promise<void>;
}
