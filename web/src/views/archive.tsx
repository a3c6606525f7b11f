import { useEffect, useState } from "preact/hooks";
import { api, type Item } from "../api.js";
import { ConfirmButton, ErrorText, useAction } from "../components.js";
import { noteFailure } from "../data.js";
import { formatDay, formatNumber } from "../format.js";
import { t } from "../i18n/index.js";
import { navigate } from "../router.js";
import { currentHousehold, recall, remember, useAppState } from "../store.js";

function ArchivedItem(props: { item: Item; isOwner: boolean; onChanged: () => void }) {
  const { householdId, online } = useAppState();
  const { item } = props;
  const restore = useAction(async () => {
    if (householdId) await api.restoreItem(householdId, item.id);
    props.onChanged();
  });
  const remove = useAction(async () => {
    if (householdId) await api.deleteItem(householdId, item.id);
    props.onChanged();
  });
  // Taking the last one out archives an item at quantity 0; the server refuses to restore that.
  const usedUp = item.quantity === 0;
  const addAgain = () => {
    if (householdId)
      remember(`lastPlace.${householdId}`, { freezerId: item.freezerId, compartmentId: item.compartmentId });
    navigate(`/?add=${encodeURIComponent(item.name)}`);
  };
  return (
    <li class="card">
      <h3>{item.name}</h3>
      <p class="muted">
        {usedUp
          ? t("archive.usedUp", { date: item.deletedAt ? formatDay(item.deletedAt) : "" })
          : t("archive.line", {
              quantity: formatNumber(item.quantity),
              date: item.deletedAt ? formatDay(item.deletedAt) : "",
            })}
      </p>
      <div class="actions">
        {usedUp ? (
          <button type="button" onClick={addAgain}>
            {t("archive.addAgain")}
          </button>
        ) : (
          <button type="button" disabled={!online || restore.busy} onClick={() => void restore.run()}>
            {t("archive.restore")}
          </button>
        )}
        {props.isOwner ? (
          <ConfirmButton
            label={t("archive.delete")}
            question={t("archive.deleteQuestion", { name: item.name })}
            confirmLabel={t("archive.deleteConfirm")}
            disabled={!online || remove.busy}
            onConfirm={() => remove.run()}
          />
        ) : null}
      </div>
      <ErrorText error={restore.error ?? remove.error} />
    </li>
  );
}

/** Archived items: restore them, or (owner) delete them for good. */
export function ArchiveView() {
  const { householdId, user, online } = useAppState();
  const [items, setItems] = useState<Item[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!householdId) return;
    api.archive(householdId).then(
      (archived) => {
        remember(`archive.${householdId}`, archived);
        setItems(archived);
        setError(null);
      },
      (failure) => {
        noteFailure(failure);
        setItems(recall<Item[]>(`archive.${householdId}`));
        setError(failure);
      },
    );
  }, [householdId, version, online]);
  const isOwner = currentHousehold()?.ownerId === user?.id;
  return (
    <main id="main">
      <h1>{t("archive.title")}</h1>
      <p class="muted">{isOwner ? t("archive.hintOwner") : t("archive.hintMember")}</p>
      {items && items.length === 0 ? <p>{t("archive.empty")}</p> : null}
      <ul class="cards">
        {items?.map((item) => (
          <ArchivedItem key={item.id} item={item} isOwner={isOwner} onChanged={() => setVersion(version + 1)} />
        ))}
      </ul>
      {online ? <ErrorText error={error} /> : null}
    </main>
  );
}
