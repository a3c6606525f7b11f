import { useEffect, useState } from "preact/hooks";
import { api, type MemberReminder } from "../api.js";
import { ActionForm, ErrorText, Field, useAction } from "../components.js";
import { noteFailure } from "../data.js";
import { formatDate } from "../format.js";
import { t } from "../i18n/index.js";
import { type PushState, pushState, syncThisDevice, turnOffThisDevice, turnOnThisDevice } from "../push.js";
import { currentHousehold, useAppState } from "../store.js";

/** Turns push reminders on or off for this browser, and says why when it cannot. */
function ThisDevice(props: { onTurnedOn: () => void }) {
  const { online } = useAppState();
  const [state, setState] = useState<PushState | null>(null);
  useEffect(() => {
    void pushState().then(
      (current) => {
        setState(current);
        // Offline the browser's word stands; online the server is told about this device again.
        if (current === "on" && navigator.onLine) void syncThisDevice().then(setState, () => undefined);
      },
      () => setState("unsupported"),
    );
  }, []);
  const turnOn = useAction(async () => {
    const next = await turnOnThisDevice();
    setState(next);
    if (next === "on") props.onTurnedOn();
  });
  const turnOff = useAction(async () => setState(await turnOffThisDevice()));
  if (state === null) return <p class="muted">{t("list.loading")}</p>;
  return (
    <section aria-labelledby="device-title">
      <h2 id="device-title">{t("reminders.device")}</h2>
      {state === "unsupported" ? <p class="notice">{t("reminders.unsupported")}</p> : null}
      {state === "denied" ? <p class="notice">{t("reminders.denied")}</p> : null}
      {state === "on" ? (
        <>
          <p role="status">{t("reminders.deviceOn")}</p>
          <button type="button" disabled={!online || turnOff.busy} onClick={() => void turnOff.run()}>
            {t("reminders.turnOff")}
          </button>
        </>
      ) : null}
      {state === "off" ? (
        <>
          <p>{t("reminders.deviceOff")}</p>
          <button type="button" class="primary" disabled={!online || turnOn.busy} onClick={() => void turnOn.run()}>
            {t("reminders.turnOn")}
          </button>
        </>
      ) : null}
      <ErrorText error={turnOn.error ?? turnOff.error} />
    </section>
  );
}

/** The member's own reminder in this household: on or off, the time, how many days ahead. */
export function RemindersView() {
  const { householdId, online } = useAppState();
  const household = currentHousehold();
  const [settings, setSettings] = useState<MemberReminder | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [enabled, setEnabled] = useState(false);
  const [timeOfDay, setTimeOfDay] = useState("18:00");
  const [daysAhead, setDaysAhead] = useState("3");
  const [saved, setSaved] = useState(false);
  const show = (loaded: MemberReminder) => {
    setSettings(loaded);
    setEnabled(loaded.enabled);
    setTimeOfDay(loaded.timeOfDay);
    setDaysAhead(String(loaded.daysAhead));
  };
  useEffect(() => {
    if (!householdId || !online) return;
    api.memberReminder(householdId).then(
      (loaded) => {
        show(loaded);
        setLoadError(null);
      },
      (failure) => {
        noteFailure(failure);
        setLoadError(failure);
      },
    );
  }, [householdId, online]);
  const save = useAction(async () => {
    if (!householdId) return;
    setSaved(false);
    show(await api.updateMemberReminder(householdId, { enabled, timeOfDay, daysAhead: Number(daysAhead) }));
    setSaved(true);
  });
  // Turning a device on means wanting reminders: switch them on if they were off.
  const deviceOn = async () => {
    if (householdId && settings && !settings.enabled)
      show(await api.updateMemberReminder(householdId, { enabled: true }).catch(() => settings));
  };
  return (
    <main id="main">
      <h1>{t("reminders.title")}</h1>
      <p class="muted">{t("reminders.intro")}</p>
      <ThisDevice onTurnedOn={() => void deviceOn()} />
      <ErrorText error={loadError} />
      {settings ? (
        <section aria-labelledby="when-title">
          <h2 id="when-title">{t("reminders.when")}</h2>
          <ActionForm action={save} disabled={!online}>
            <div class="field check">
              <input
                id="reminder-enabled"
                type="checkbox"
                checked={enabled}
                onChange={(event) => setEnabled(event.currentTarget.checked)}
              />
              <label for="reminder-enabled">{t("reminders.enabled")}</label>
            </div>
            <Field
              id="reminder-time"
              type="time"
              label={t("reminders.time")}
              hint={household?.timeZone ? t("reminders.timeZone", { zone: household.timeZone }) : undefined}
              required
              value={timeOfDay}
              onValue={setTimeOfDay}
            />
            <Field
              id="reminder-days"
              type="number"
              inputMode="numeric"
              min={0}
              max={365}
              step={1}
              required
              label={t("reminders.daysAhead")}
              hint={t("reminders.daysAheadHint")}
              value={daysAhead}
              onValue={setDaysAhead}
            />
            <button type="submit" class="primary">
              {t("action.save")}
            </button>
          </ActionForm>
          {saved ? (
            <p class="notice" role="status">
              {t("reminders.saved")}
            </p>
          ) : null}
          {settings.lastSentOn ? (
            // The household's calendar day it went out (YYYY-MM-DD), not an instant: shown as
            // the date it names, as expiry dates are, or a zone west of UTC says the day before.
            <p class="muted">{t("reminders.lastSent", { date: formatDate(settings.lastSentOn) })}</p>
          ) : null}
        </section>
      ) : null}
    </main>
  );
}
