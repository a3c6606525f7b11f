import { useEffect } from "preact/hooks";
import { dismissWrite, flushPending, refreshPending } from "../data.js";
import { formatNumber } from "../format.js";
import { t } from "../i18n/index.js";
import type { QueuedWrite } from "../offline.js";
import { useAppState } from "../store.js";
import { amountText } from "./shopping-list.js";

/** What a waiting write will do, as the pending list says it. */
function describeWrite(write: QueuedWrite): string {
  switch (write.kind) {
    case "add":
      return t("offline.pendingAdd", { name: write.name, quantity: formatNumber(write.body.quantity ?? 1) });
    case "takeOut":
      return t("offline.pendingTakeOut", { name: write.name, quantity: formatNumber(write.body.quantity) });
    case "shoppingAdd":
      return t("offline.pendingShoppingAdd", { name: write.name, amount: amountText(write.body) });
    case "shoppingCheck":
      return t(write.checked ? "offline.pendingShoppingCheck" : "offline.pendingShoppingUncheck", { name: write.name });
    case "shoppingRemove":
      return t("offline.pendingShoppingRemove", { name: write.name });
  }
}

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
              {describeWrite(write)}
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
