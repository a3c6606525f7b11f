import { Automation, type Trigger, type TriggerContext } from "hearth";

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

  private offTimer: NodeJS.Timeout | undefined;

  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "mqtt") return;
    if (context.payload.occupancy !== true) return;
    clearTimeout(this.offTimer);
    this.mqtt.publishToDevice("hallway_light", { state: "ON", brightness: 200 });
    this.logger.info("Motion in the hallway: light on");
    this.offTimer = setTimeout(() => {
      this.mqtt.publishToDevice("hallway_light", { state: "OFF" });
      this.logger.info("No motion for two minutes: light off");
    }, 120_000);
    this.offTimer.unref();
  }

  override async onStop(): Promise<void> {
    clearTimeout(this.offTimer);
  }
}
