import { Automation, type Trigger, type TriggerContext } from "hearth";

/** When `away` becomes true (see away-mode-webhook), switches every listed light off. */
export default class AwayLightsOff extends Automation {
  readonly name = "away-lights-off";

  readonly triggers: Trigger[] = [{ type: "state", key: "away", filter: (newValue) => newValue === true }];

  private readonly lights = ["hallway_light", "living_room_lamp", "kitchen_ceiling"];

  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "state") return;
    for (const light of this.lights) this.mqtt.publishToDevice(light, { state: "OFF" });
    this.logger.info("Away mode on: lights off", { lights: this.lights.length });
  }
}
