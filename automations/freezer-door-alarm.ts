import { Automation, type Trigger, type TriggerContext } from "hearth";

/** The Zigbee contact sensor on the freezer door (Zigbee2MQTT friendly name). */
const DOOR_TOPIC = "zigbee2mqtt/freezer_door";
/** The Shelly relay (SHELLY_DEVICES name) driving a warning light or buzzer by the freezer. */
const ALARM_RELAY = "freezer-alarm";
const OPEN_LIMIT_MS = 2 * 60_000;

/**
 * Three services in one automation:
 * - the freezer door left open for 2 minutes → an urgent ntfy notification and the Shelly
 *   relay `freezer-alarm` switched on; closing the door switches it off again;
 * - every morning at 07:00 → the day's forecast as a notification.
 *
 * Needs NTFY_TOPIC, SHELLY_DEVICES=freezer-alarm=http://… and WEATHER_LATITUDE/LONGITUDE;
 * each part does nothing (with a log line) while its service is not configured. The door is
 * checked every 10 seconds, so the alarm comes 2 minutes to 2 minutes 10 seconds after opening.
 */
export default class FreezerDoorAlarm extends Automation {
  readonly name = "freezer-door-alarm";

  readonly triggers: Trigger[] = [
    { type: "mqtt", topic: DOOR_TOPIC, filter: (payload) => typeof payload.contact === "boolean" },
    { type: "cron", expression: "*/10 * * * * *" },
    { type: "cron", expression: "0 7 * * *" },
  ];

  async execute(context: TriggerContext): Promise<void> {
    if (context.type === "mqtt") return this.doorChanged(context.payload.contact === true);
    if (context.type !== "cron") return;
    if (context.expression === "0 7 * * *") return this.morningForecast();
    return this.checkDoor(context.firedAt);
  }

  private async doorChanged(closed: boolean): Promise<void> {
    if (!closed) {
      this.state.set("freezer.door.open", true);
      return;
    }
    const alarmed = this.state.get("freezer.door.alarmed") === true;
    this.state.delete("freezer.door.open");
    this.state.delete("freezer.door.open-since");
    this.state.delete("freezer.door.alarmed");
    if (!alarmed) return;
    await this.services.use("relay", (relay) =>
      relay
        .switchOff(ALARM_RELAY)
        .catch((error: Error) => this.logger.warn("Could not switch the alarm off", { error: error.message })),
    );
    await this.notify({
      title: "Freezer",
      message: "The freezer door is closed again.",
      priority: "default",
      tags: ["white_check_mark"],
    });
  }

  /** The first tick that sees the door open starts the clock; the engine's time source drives it. */
  private async checkDoor(now: Date): Promise<void> {
    if (this.state.get("freezer.door.open") !== true || this.state.get("freezer.door.alarmed") === true) return;
    const openSince = this.state.get<number>("freezer.door.open-since");
    if (openSince === undefined) {
      this.state.set("freezer.door.open-since", now.getTime());
      return;
    }
    if (now.getTime() - openSince < OPEN_LIMIT_MS) return;
    this.state.set("freezer.door.alarmed", true);

    const sent = await this.notify({
      title: "Freezer door open",
      message: "The freezer door has been open for 2 minutes. Close it before the food thaws!",
      priority: "urgent",
      tags: ["warning", "snowflake"],
    });
    if (sent && !sent.ok) this.logger.error("The freezer alarm notification was not sent", { error: sent.error });

    // services.use does nothing when no relay service is configured.
    await this.services.use("relay", async (relay) => {
      try {
        await relay.switchOn(ALARM_RELAY);
      } catch (error) {
        // A ServiceCallError: unreachable relay, wrong password, unknown device name.
        this.logger.warn("Could not switch the freezer alarm relay on", { error: (error as Error).message });
      }
    });
  }

  private async morningForecast(): Promise<void> {
    const weather = this.services.get("weather");
    if (!weather) {
      this.logger.info("No weather service configured; no morning forecast");
      return;
    }
    try {
      const { data, unitLabels, stale } = await weather.daily(1);
      const today = data[0];
      if (!today) return;
      const time = (date: Date | null) =>
        date ? date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: this.config.TZ }) : "?";
      const rain = today.precipitationProbability !== null ? `, ${today.precipitationProbability}% chance of rain` : "";
      await this.notify({
        title: `Today: ${today.description}`,
        message:
          `${Math.round(today.temperatureMin)}–${Math.round(today.temperatureMax)} ${unitLabels.temperature}${rain}. ` +
          `Sunrise ${time(today.sunrise)}, sunset ${time(today.sunset)}.${stale ? " (The forecast service is down; this is the last forecast it gave.)" : ""}`,
        tags: ["sunny"],
      });
    } catch (error) {
      // Only when the provider has never answered: nothing to tell yet.
      this.logger.warn("No forecast this morning", { error: (error as Error).message });
    }
  }
}
