import { useEffect, useState } from "preact/hooks";
import { api, type Item, SHOPPING_UNITS, type ShoppingListEntry, type ShoppingUnit } from "../api.js";
import { ActionForm, ErrorText, NamedOptions, QuantityField, Select, useAction } from "../components.js";
import { addShoppingEntry, checkShoppingEntry, flushPending, noteFailure, removeShoppingEntry } from "../data.js";
import { formatNumber, parseDecimal } from "../format.js";
import { type MessageKey, t } from "../i18n/index.js";
import { navigate } from "../router.js";
import { type ShownEntry, withWaitingWrites } from "../shopping.js";
import { announce, recall, remember, useAppState } from "../store.js";
import { PendingWrites } from "./pending.js";

/** Each unit's amount, for one and for any other quantity ("1 bag", "2 bags", "500 g"), and its name. */
const UNIT_TEXTS: Record<ShoppingUnit, { one: MessageKey; other: MessageKey; name: MessageKey }> = {
  piece: { one: "shopping.unit.piece.one", other: "shopping.unit.piece.other", name: "shopping.unitName.piece" },
  portion: {
    one: "shopping.unit.portion.one",
    other: "shopping.unit.portion.other",
    name: "shopping.unitName.portion",
  },
  bag: { one: "shopping.unit.bag.one", other: "shopping.unit.bag.other", name: "shopping.unitName.bag" },
  g: { one: "shopping.unit.g", other: "shopping.unit.g", name: "shopping.unitName.g" },
  kg: { one: "shopping.unit.kg", other: "shopping.unit.kg", name: "shopping.unitName.kg" },
  ml: { one: "shopping.unit.ml", other: "shopping.unit.ml", name: "shopping.unitName.ml" },
  l: { one: "shopping.unit.l", other: "shopping.unit.l", name: "shopping.unitName.l" },
};

/** "2 bags", "500 g": the amount as the list shows it. */
export function amountText(entry: { quantity: number; unit: ShoppingUnit }): string {
  const texts = UNIT_TEXTS[entry.unit];
  return t(entry.quantity === 1 ? texts.one : texts.other, { n: formatNumber(entry.quantity) });
}

// ---- "put on the shopping list" after the last one was taken out ----------------------------

type Offer = { householdId: string; itemId: string; name: string } | null;
let offer: Offer = null;
const offerListeners = new Set<() => void>();

function setOffer(next: Offer): void {
  offer = next;
  for (const listener of offerListeners) listener();
}

/**
 * Offers to put `item` on the shopping list: called when taking out used it up or it was
 * archived. How much goes on the list is the server's to say (a weight or a volume the most
 * the item held, anything counted one), so every client adds the same.
 */
export function offerShoppingList(householdId: string, item: Pick<Item, "id" | "name">): void {
  setOffer({ householdId, itemId: item.id, name: item.name });
}

/**
 * The offer after the last one was taken out: a region on every screen (the item screen goes
 * back home once its item is used up), with "put on the list" and "no thanks".
 */
export function ShoppingOffer() {
  const [, rerender] = useState(0);
  const { householdId, online } = useAppState();
  useEffect(() => {
    const listener = () => rerender((n) => n + 1);
    offerListeners.add(listener);
    return () => {
      offerListeners.delete(listener);
    };
  }, []);
  const shown = offer && offer.householdId === householdId ? offer : null;
  // Said once when it appears ("that was the last of …"), not on every re-render; the focus stays
  // where the take-out left it.
  useEffect(() => {
    if (shown) announce(t("shopping.offer.question", { name: shown.name }));
  }, [shown]);
  const add = useAction(async () => {
    if (!offer) return;
    const { householdId: hid, itemId, name } = offer;
    await api.addShoppingListEntry(hid, { fromItemId: itemId });
    setOffer(null);
    announce(t("shopping.offer.added", { name }));
  });
  if (!shown) return null;
  return (
    <section class="notice banner shopping-offer" aria-labelledby="shopping-offer-text">
      <p id="shopping-offer-text">{t("shopping.offer.question", { name: shown.name })}</p>
      <div class="actions">
        <button type="button" class="primary" disabled={!online || add.busy} onClick={() => void add.run()}>
          {t("shopping.offer.add")}
        </button>
        <button type="button" onClick={() => setOffer(null)}>
          {t("shopping.offer.dismiss")}
        </button>
      </div>
      <ErrorText error={add.error} overrides={{ 409: "shopping.full" }} />
    </section>
  );
}

// ---- the list -------------------------------------------------------------------------------

function AddEntry(props: { onAdded: () => void }) {
  const { householdId } = useAppState();
  const [name, setName] = useState("");
  const [quantity, setQuantity] = useState("1");
  const [unit, setUnit] = useState<ShoppingUnit>("piece");
  const add = useAction(async () => {
    if (!householdId) return;
    // Offline (in the shop) it waits on this device and shows at the end of the list.
    const addition = { name: name.trim(), quantity: parseDecimal(quantity), unit };
    const entry = await addShoppingEntry(householdId, addition);
    setName("");
    setQuantity("1");
    setUnit("piece");
    if (entry === "queued") announce(t("shopping.queuedAdd", { name: addition.name }));
    else {
      announce(t("shopping.added", { name: entry.name }));
      props.onAdded();
    }
    requestAnimationFrame(() => document.getElementById("shopping-name")?.focus());
  });
  return (
    <ActionForm
      action={add}
      class="shopping-add"
      heading={<h2 id="shopping-add-title">{t("shopping.addTitle")}</h2>}
      overrides={{ 409: "shopping.full" }}
      labels={{ name: "shopping.field.name", quantity: "field.quantity", unit: "shopping.field.unit" }}
    >
      <div class="field">
        <label for="shopping-name">{t("shopping.field.name")}</label>
        <input
          id="shopping-name"
          required
          maxLength={200}
          autocomplete="off"
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </div>
      <div class="row">
        <QuantityField id="shopping-quantity" label={t("field.quantity")} value={quantity} onValue={setQuantity} />
        <Select
          id="shopping-unit"
          label={t("shopping.field.unit")}
          value={unit}
          onValue={(value) => setUnit(value as ShoppingUnit)}
        >
          {SHOPPING_UNITS.map((candidate) => (
            <option key={candidate} value={candidate}>
              {t(UNIT_TEXTS[candidate].name)}
            </option>
          ))}
        </Select>
      </div>
      <button type="submit" class="primary">
        {t("shopping.add")}
      </button>
    </ActionForm>
  );
}

function EntryRow(props: {
  entry: ShownEntry;
  index: number;
  /** How many entries can be moved (those the server has), above any added offline. */
  count: number;
  onMove: (entry: ShoppingListEntry, to: number) => Promise<void>;
  onChanged: () => void;
}) {
  const { householdId, online } = useAppState();
  const { entry } = props;
  const movable = online && entry.waiting === undefined;
  // Ticked at once, as a paper list would be; put back if the server refuses. Offline the tick
  // waits on this device and is sent when the connection is back.
  const [checked, setChecked] = useState(entry.checked);
  useEffect(() => setChecked(entry.checked), [entry.checked]);
  const check = useAction(async (next: boolean) => {
    if (!householdId) return;
    setChecked(next);
    let sent: ShoppingListEntry | "queued";
    try {
      sent = await checkShoppingEntry(householdId, entry, next);
    } catch (failure) {
      setChecked(entry.checked);
      throw failure;
    }
    if (sent !== "queued") props.onChanged();
  });
  const move = useAction((to: number) => props.onMove(entry, to));
  const remove = useAction(async () => {
    if (!householdId) return;
    const removed = await removeShoppingEntry(householdId, entry);
    announce(t("shopping.removed", { name: entry.name }));
    if (removed !== "queued") props.onChanged();
    requestAnimationFrame(() => document.getElementById("shopping-name")?.focus());
  });
  const checkbox = `shopping-check-${entry.id}`;
  return (
    <li class={checked ? "shopping-entry checked" : "shopping-entry"} data-entry={entry.id}>
      <div class="shopping-check">
        <input
          type="checkbox"
          id={checkbox}
          checked={checked}
          onChange={(event) => void check.run(event.currentTarget.checked)}
        />
        <label for={checkbox}>
          <span class="shopping-name">{entry.name}</span> <span class="shopping-amount">{amountText(entry)}</span>
          {entry.waiting === undefined ? null : <span class="shopping-waiting muted"> ({t("offline.waiting")})</span>}
        </label>
      </div>
      <div class="shopping-actions">
        {/* Not disabled while a move runs: a disabled button drops the keyboard focus. */}
        <button
          type="button"
          data-move="up"
          disabled={!movable || props.index === 0}
          onClick={() => void (move.busy ? undefined : move.run(props.index - 1))}
        >
          <span aria-hidden="true">↑</span>
          <span class="visually-hidden">{t("shopping.moveUp", { name: entry.name })}</span>
        </button>
        <button
          type="button"
          data-move="down"
          disabled={!movable || props.index >= props.count - 1}
          onClick={() => void (move.busy ? undefined : move.run(props.index + 1))}
        >
          <span aria-hidden="true">↓</span>
          <span class="visually-hidden">{t("shopping.moveDown", { name: entry.name })}</span>
        </button>
        <button type="button" data-remove disabled={remove.busy} onClick={() => void remove.run()}>
          <span aria-hidden="true">×</span>
          <span class="visually-hidden">{t("shopping.remove", { name: entry.name })}</span>
        </button>
      </div>
      <ErrorText error={check.error ?? move.error ?? remove.error} overrides={{ 404: "shopping.gone" }} />
    </li>
  );
}

/** Puts the focus on a row's move button, or on the other one when that end was reached. */
function focusEntryButton(entryId: string, direction: string): void {
  const row = document.querySelector<HTMLElement>(`[data-entry="${entryId}"]`);
  const wanted = row?.querySelector<HTMLButtonElement>(`[data-move="${direction}"]`);
  const other = row?.querySelector<HTMLButtonElement>(`[data-move="${direction === "up" ? "down" : "up"}"]`);
  (wanted && !wanted.disabled ? wanted : other)?.focus();
}

/** The checked entries into one compartment, in one step. */
function StockChecked(props: { checked: number; onStocked: () => void }) {
  const { householdId, online, freezers } = useAppState();
  const last = householdId ? recall<{ freezerId: string; compartmentId: string }>(`lastPlace.${householdId}`) : null;
  const [freezerId, setFreezerId] = useState(last?.freezerId ?? freezers[0]?.id ?? "");
  const freezer = freezers.find((candidate) => candidate.id === freezerId) ?? freezers[0];
  const [compartmentId, setCompartmentId] = useState(last?.compartmentId ?? "");
  const compartment =
    freezer?.compartments.find((candidate) => candidate.id === compartmentId) ?? freezer?.compartments[0];
  const stock = useAction(async () => {
    if (!householdId || !freezer || !compartment) return;
    // What was checked off in the shop without signal goes first, so it is stocked too.
    await flushPending();
    const stocked = await api.stockCheckedEntries(householdId, {
      freezerId: freezer.id,
      compartmentId: compartment.id,
    });
    remember(`lastPlace.${householdId}`, { freezerId: freezer.id, compartmentId: compartment.id });
    announce(t("shopping.stocked", { count: formatNumber(stocked.itemsCreated) }));
    props.onStocked();
  });
  if (freezers.length === 0) {
    return (
      <section aria-labelledby="shopping-stock-title" class="shopping-stock">
        <h2 id="shopping-stock-title">{t("shopping.stockTitle")}</h2>
        <p>{t("shopping.stockNoFreezer")}</p>
        <button type="button" onClick={() => navigate("/freezers")}>
          {t("nav.freezers")}
        </button>
      </section>
    );
  }
  return (
    <section aria-labelledby="shopping-stock-title" class="shopping-stock">
      <ActionForm
        action={stock}
        disabled={!online}
        heading={<h2 id="shopping-stock-title">{t("shopping.stockTitle")}</h2>}
        overrides={{ 409: "shopping.noneChecked" }}
      >
        <p class="muted">{t("shopping.stockHint", { count: formatNumber(props.checked) })}</p>
        <div class="row">
          <Select
            id="shopping-stock-freezer"
            label={t("field.freezer")}
            value={freezer?.id ?? ""}
            onValue={(value) => {
              setFreezerId(value);
              setCompartmentId("");
            }}
          >
            <NamedOptions of={freezers} />
          </Select>
          <Select
            id="shopping-stock-compartment"
            label={t("field.compartment")}
            value={compartment?.id ?? ""}
            onValue={setCompartmentId}
          >
            <NamedOptions of={freezer?.compartments} />
          </Select>
        </div>
        <button type="submit" class="primary" disabled={!compartment}>
          {t("shopping.stock", { count: formatNumber(props.checked) })}
        </button>
      </ActionForm>
    </section>
  );
}

/** The household's shared shopping list: add, check off, reorder, remove, and stock what was bought. */
export function ShoppingListView() {
  const { householdId, online, liveVersion, pending } = useAppState();
  const [entries, setEntries] = useState<ShoppingListEntry[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((current) => current + 1);
  useEffect(() => {
    if (!householdId) return;
    const key = `shopping.${householdId}`;
    let current = true;
    api.shoppingList(householdId).then(
      (list) => {
        if (!current) return;
        remember(key, list);
        setEntries(list);
        setError(null);
      },
      (failure) => {
        if (!current) return;
        noteFailure(failure);
        // Offline: what this device saw last, read-only.
        setEntries(recall<ShoppingListEntry[]>(key));
        setError(failure);
      },
    );
    return () => {
      current = false;
    };
  }, [householdId, version, liveVersion, online]);
  // As last seen, with what this device did offline and has not sent yet.
  const shown = householdId && (entries || error) ? withWaitingWrites(entries ?? [], pending, householdId) : null;
  const onServer = shown?.filter((entry) => entry.waiting === undefined) ?? [];
  const checked = shown?.filter((entry) => entry.checked).length ?? 0;
  // Moved at once on this screen, then on the server; the list reloads either way.
  const move = async (entry: ShoppingListEntry, to: number) => {
    if (!householdId) return;
    const from = onServer.findIndex((candidate) => candidate.id === entry.id);
    const reordered = onServer.filter((candidate) => candidate.id !== entry.id);
    reordered.splice(to, 0, entry);
    setEntries(reordered);
    requestAnimationFrame(() => focusEntryButton(entry.id, to < from ? "up" : "down"));
    try {
      await api.updateShoppingListEntry(householdId, entry.id, { position: to });
      announce(t("shopping.moved", { name: entry.name, position: formatNumber(to + 1) }));
    } finally {
      changed();
    }
  };
  return (
    <main id="main" class="shopping">
      <h1>{t("shopping.title")}</h1>
      {/* Never kept on this device: saying "as this device last saw it" over an empty list would
          pass for an empty list. */}
      {online ? null : <p class="muted">{t(entries === null && error ? "shopping.notKept" : "shopping.offline")}</p>}
      <AddEntry onAdded={changed} />
      <section aria-labelledby="shopping-list-title">
        <h2 id="shopping-list-title">{t("shopping.listTitle")}</h2>
        {entries === null && !error ? <p>{t("list.loading")}</p> : null}
        {entries && shown?.length === 0 ? <p class="muted">{t("shopping.empty")}</p> : null}
        <ul class="shopping-entries">
          {shown?.map((entry, index) => (
            <EntryRow
              key={entry.id}
              entry={entry}
              index={index}
              count={onServer.length}
              onMove={move}
              onChanged={changed}
            />
          ))}
        </ul>
        {online ? <ErrorText error={error} /> : null}
      </section>
      {/* Under the list, which already shows them, so a phone in the shop sees the list first; a
          refusal on reconnecting (an entry removed meanwhile) stays here with its reason. */}
      <PendingWrites />
      {checked > 0 ? <StockChecked checked={checked} onStocked={changed} /> : null}
    </main>
  );
}
