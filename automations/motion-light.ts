import { Automation, type ScheduledTimer, type Trigger, type TriggerContext } from "hearth";

/**
 * Turns the hallway light on when the hallway motion sensor reports occupancy, and off
 * again two minutes after the last motion. Works with Zigbee2MQTT's topics:
 * the sensor publishes `{ "occupancy": true }` on `zigbee2mqtt/hallway_motion`.
 */
export default class MotionLight extends Automation {
  readonly name = "motion-light";

  readonly triggers: Trigger[] = [
    {
      type: "mqtt",
      topic: "zigbee2mqtt/hallway_motion",
      // Only messages that say something about occupancy are interesting.
      filter: (payload) => typeof payload.occupancy === "boolean",
    },
  ];

  // As Home Assistant's motion-light blueprint: new motion replaces a run in progress.
  override readonly mode = "restart";

  private offTimer: ScheduledTimer | undefined;

  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "mqtt") return;
    if (context.payload.occupancy !== true) return;
    this.offTimer?.cancel();
    this.mqtt.publishToDevice("hallway_light", { state: "ON", brightness: 200 });
    this.logger.info("Motion in the hallway: light on");
    // this.after(), not setTimeout: the engine clears it when the automation stops or is
    // reloaded, and the test kit's fake clock drives it.
    this.offTimer = this.after(120_000, () => {
      this.mqtt.publishToDevice("hallway_light", { state: "OFF" });
      this.logger.info("No motion for two minutes: light off");
    });
  }
}
