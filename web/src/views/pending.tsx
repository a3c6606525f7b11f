import { useEffect } from "preact/hooks";
import { dismissWrite, flushPending, refreshPending } from "../data.js";
import { formatNumber } from "../format.js";
import { t } from "../i18n/index.js";
import { useAppState } from "../store.js";

/** The writes made offline: waiting, or refused by the server with its reason until dismissed. */
export function PendingWrites() {
  const { pending, online } = useAppState();
  useEffect(() => {
    void refreshPending().then(() => (online ? flushPending() : undefined));
  }, [online]);
  if (pending.length === 0) return null;
  return (
    <section aria-labelledby="pending-title" class="pending">
      <h2 id="pending-title">{t("offline.pendingTitle")}</h2>
      <ul>
        {pending.map((write) => (
          <li key={write.id} class={write.status === "refused" ? "refused" : "waiting"}>
            <span>
              {write.kind === "add"
                ? t("offline.pendingAdd", { name: write.name, quantity: formatNumber(write.body.quantity ?? 1) })
                : t("offline.pendingTakeOut", { name: write.name, quantity: formatNumber(write.body.quantity ?? 1) })}
              {" – "}
              {write.status === "refused" ? (
                <strong class="error">{t("offline.refused", { reason: write.problem ?? "" })}</strong>
              ) : (
                <span class="muted">{t("offline.waiting")}</span>
              )}
            </span>
            {write.status === "refused" && write.id !== undefined ? (
              <button type="button" onClick={() => void dismissWrite(write.id!)}>
                {t("offline.dismiss")}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
