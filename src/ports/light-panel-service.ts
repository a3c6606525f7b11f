/**
 * The light-panel service (registry key `lightPanels`): Nanoleaf panels by name, through
 * the Nanoleaf OpenAPI on port 16021. A panel needs a token once: put it in pairing mode
 * (hold its power button 5–7 s) and call `pair(name)`; the token is kept in DATA_DIR.
 *
 * Every method rejects with a `ServiceCallError` (service `lightPanels`): unknown panel,
 * not paired yet (`SERVICE_NOT_READY`), value out of range, panel unreachable or refusing
 * the token.
 */

/** A configured panel. */
export interface LightPanelInfo {
  name: string;
  /** `http://10.0.0.40:16021`. */
  url: string;
  /** Whether Hearth holds a token for it. */
  paired: boolean;
}

/** What a panel reports about itself. */
export interface LightPanelState {
  name: string;
  on: boolean;
  /** 0–100. */
  brightness: number;
  /** 0–360. */
  hue: number;
  /** 0–100. */
  saturation: number;
  /** Kelvin, 1200–6500. */
  colorTemperature: number;
  /** `hs`, `ct` or `effect`. */
  colorMode: string;
  /** The selected effect, or null when the panel shows a plain colour. */
  effect: string | null;
  model: string | null;
  firmwareVersion: string | null;
}

export interface LightPanelService {
  panels(): LightPanelInfo[];
  hasPanel(name: string): boolean;

  /** Asks a panel in pairing mode for a token and keeps it. */
  pair(name: string): Promise<void>;

  turnOn(name: string): Promise<void>;
  turnOff(name: string): Promise<void>;
  /** 0–100, reached over `durationSeconds` (default at once). */
  setBrightness(name: string, brightness: number, durationSeconds?: number): Promise<void>;
  /** Hue 0–360, saturation 0–100. */
  setHueSaturation(name: string, hue: number, saturation: number): Promise<void>;
  /** Kelvin, 1200–6500. */
  setColorTemperature(name: string, kelvin: number): Promise<void>;
  getState(name: string): Promise<LightPanelState>;

  listEffects(name: string): Promise<string[]>;
  selectEffect(name: string, effect: string): Promise<void>;
  /** The selected effect's name, or null. */
  currentEffect(name: string): Promise<string | null>;

  /** Flashes the panel so you can tell which one it is. */
  identify(name: string): Promise<void>;
}

export const LIGHT_PANEL_SERVICE_KEY = "lightPanels";
