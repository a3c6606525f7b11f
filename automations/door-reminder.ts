import { Automation, type Trigger, type TriggerContext } from "hearth";

/**
 * Remembers since when the front door is open (a Zigbee contact sensor publishing
 * `{ "contact": false }` when open) and, checking every minute, sends a reminder once it
 * has been open for ten minutes.
 */
export default class DoorReminder extends Automation {
  readonly name = "door-reminder";

  readonly triggers: Trigger[] = [
    { type: "mqtt", topic: "zigbee2mqtt/front_door", filter: (payload) => typeof payload.contact === "boolean" },
    { type: "cron", expression: "* * * * *" },
  ];

  async execute(context: TriggerContext): Promise<void> {
    if (context.type === "mqtt") {
      if (context.payload.contact === false) {
        if (!this.state.has("front-door.open-since")) this.state.set("front-door.open-since", this.now().getTime());
      } else {
        this.state.delete("front-door.open-since");
        this.state.delete("front-door.reminded");
      }
      return;
    }
    if (context.type !== "cron") return;
    const openSince = this.state.get<number>("front-door.open-since");
    if (openSince === undefined || this.state.get("front-door.reminded") === true) return;
    const minutesOpen = (context.firedAt.getTime() - openSince) / 60_000;
    if (minutesOpen < 10) return;
    this.state.set("front-door.reminded", true);
    await this.notify({
      title: "Front door",
      message: `The front door has been open for ${Math.round(minutesOpen)} minutes`,
      priority: 4,
      tags: ["door"],
    });
  }
}
