import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, type ChangeLogEntry, type Item, type ItemFields } from "../api.js";
import {
  ActionForm,
  ConfirmButton,
  ErrorText,
  Field,
  Link,
  NamedOptions,
  NotesField,
  QuantityField,
  Select,
  useAction,
  useSoftConfirm,
} from "../components.js";
import { householdHolding, keepItems, keptItem, noteFailure, selectHousehold } from "../data.js";
import {
  dateInputValue,
  decimalInputValue,
  formatDate,
  formatDateTime,
  formatNumber,
  formatRelative,
  parseDecimal,
  unlikelyValues,
} from "../format.js";
import { type MessageKey, t } from "../i18n/index.js";
import { navigate } from "../router.js";
import { announce, compartmentName, freezerName, setState, useAppState } from "../store.js";
import { historySentence, rememberCategories, unitsOfEntries } from "../history.js";
import { offerShoppingList } from "./shopping-list.js";
import { Expiry } from "./items.js";
import { ITEM_UNITS, type ItemUnit } from "../api.js";
import {
  categoryLabel,
  categoryName,
  formatAmount,
  frozenFor,
  isCounted,
  unitName,
  useCategories,
} from "../categories.js";

/** Units an amount can be taken out in: the item's own, and g/kg or ml/l across each other. */
function takeOutUnits(unit: ItemUnit): ItemUnit[] {
  if (unit === "g" || unit === "kg") return ["g", "kg"];
  if (unit === "ml" || unit === "l") return ["ml", "l"];
  return [unit];
}

/**
 * What the take-out amount starts as: one of a counted unit. A weight or a volume starts empty,
 * since its whole ("1 kg") is rarely what is taken and a number typed for one unit must never
 * end up paired with another.
 */
function defaultTakeOut(unit: ItemUnit): string {
  return isCounted(unit) ? "1" : "";
}

import { ItemPhotoSection } from "./item-photo.js";
import { versionPastOwnPhoto } from "../photos.js";
/** One item: edit, move, take some out, archive; and what happened to it. */
export function ItemView(props: { itemId: string }) {
  const { householdId, freezers, online, liveVersion } = useAppState();
  const [item, setItem] = useState<Item | null>(null);
  /** The item as the edit form was filled from: its updatedAt goes with a save (If-Match). */
  const [base, setBase] = useState<Item | null>(null);
  /** Offline: the item as this device kept it, shown read-only. */
  const [kept, setKept] = useState(false);
  /** A save refused because someone else changed the item: their version, to choose from. */
  const [conflict, setConflict] = useState<Item | null>(null);
  const [history, setHistory] = useState<ChangeLogEntry[]>([]);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [name, setName] = useState("");
  const [quantity, setQuantity] = useState("");
  const [notes, setNotes] = useState("");
  const [expiresAt, setExpiresAt] = useState("");
  const [barcode, setBarcode] = useState("");
  const [freezerId, setFreezerId] = useState("");
  const [compartmentId, setCompartmentId] = useState("");
  const [take, setTake] = useState("");
  const [unit, setUnit] = useState<ItemUnit>("piece");
  const [categoryId, setCategoryId] = useState("");
  const [storedAt, setStoredAt] = useState("");
  const [takeUnit, setTakeUnit] = useState<ItemUnit>("piece");
  /** The item and unit the take-out form was set up for; a reload of the same keeps what the user chose. */
  const takeFor = useRef<{ itemId: string; unit: ItemUnit } | null>(null);
  const categories = useCategories();
  rememberCategories(categories);

  const show = (loaded: Item) => {
    setItem(loaded);
    setBase(loaded);
    setConflict(null);
    setName(loaded.name);
    setQuantity(decimalInputValue(loaded.quantity));
    setNotes(loaded.notes ?? "");
    setExpiresAt(dateInputValue(loaded.expiresAt));
    setBarcode(loaded.barcode ?? "");
    setUnit(loaded.unit ?? "piece");
    const loadedUnit = loaded.unit ?? "piece";
    // Amount and unit start afresh together, and only for another item or a changed unit: a
    // reload after a take-out must not put the item's unit under the amount typed for another.
    if (takeFor.current?.itemId !== loaded.id || takeFor.current.unit !== loadedUnit) {
      takeFor.current = { itemId: loaded.id, unit: loadedUnit };
      setTake(defaultTakeOut(loadedUnit));
      setTakeUnit(loadedUnit);
    }
    setCategoryId(loaded.categoryId ?? "");
    setStoredAt(dateInputValue(loaded.storedAt));
    setFreezerId(loaded.freezerId);
    setCompartmentId(loaded.compartmentId);
  };
  /** Whether the edit form still shows the loaded values (nothing typed that a reload would lose). */
  const clean = () =>
    !base ||
    (name === base.name &&
      parseDecimal(quantity) === base.quantity &&
      (notes || null) === base.notes &&
      expiresAt === dateInputValue(base.expiresAt) &&
      (barcode.trim() || null) === base.barcode &&
      unit === base.unit &&
      (categoryId || null) === base.categoryId &&
      storedAt === dateInputValue(base.storedAt));
  // A reload reads the form as it is when its answer arrives, not as it was when it was asked
  // for: the user may have started typing while it was on its way.
  const cleanNow = useRef(clean);
  cleanNow.current = clean;
  /**
   * Loads the item again. With `keepDraft` (a live change, the connection going or coming back)
   * the form keeps what the user is typing: the summary and history update, the form keeps its
   * version, and a save then says that the item changed. Only the user's own save, or another
   * item, refills the form.
   */
  const reload = async (keepDraft = false) => {
    if (!householdId) return;
    const showUnlessTyping = (loaded: Item) => {
      if (keepDraft && !cleanNow.current()) setItem(loaded);
      else show(loaded);
    };
    try {
      const [loaded, entries] = await Promise.all([
        api.item(householdId, props.itemId),
        api.history(householdId, props.itemId),
      ]);
      showUnlessTyping(loaded);
      setHistory(entries);
      setLoadError(null);
      setKept(false);
      void keepItems([loaded]);
    } catch (failure) {
      noteFailure(failure);
      if (failure instanceof ApiError && failure.status === 0) {
        const copy = await keptItem(props.itemId);
        if (copy) {
          showUnlessTyping(copy);
          setKept(true);
          return;
        }
      }
      if (failure instanceof ApiError && failure.status === 404 && !keepDraft) {
        const holding = await householdHolding(props.itemId, householdId);
        if (holding) {
          // Selecting it loads the item again, now from the household it belongs to.
          setState({ notice: t("item.otherHousehold", { name: holding.name }) });
          void selectHousehold(holding.id).catch(() => undefined);
          return;
        }
      }
      setLoadError(failure);
    }
  };
  useEffect(() => {
    void reload();
  }, [householdId, props.itemId]);
  // Going offline or back online reloads (the kept copy, then the server's) without refilling the
  // form: a phone that loses its Wi-Fi for a second must not throw away a half-typed note.
  const loadedOnline = useRef(online);
  useEffect(() => {
    if (loadedOnline.current === online) return;
    loadedOnline.current = online;
    void reload(true);
  }, [online]);
  useEffect(() => {
    if (liveVersion > 0) void reload(true);
  }, [liveVersion]);

  // A reload or a closed tab would drop what was typed without a word: the browser asks first.
  // The form is read when the page unloads, not when it last rendered: a key pressed just before
  // counts. Moving inside the app leaves the form without asking, as every other screen does.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!cleanNow.current()) event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, []);

  const unlikely = useSoftConfirm();
  /** What the form changes, compared with the version it was filled from. */
  const formChanges = (reference: Item): ItemFields => {
    const changes: ItemFields = {};
    if (name.trim() !== reference.name) changes.name = name.trim();
    if (parseDecimal(quantity) !== reference.quantity) changes.quantity = parseDecimal(quantity);
    if ((notes || null) !== reference.notes) changes.notes = notes || null;
    if (expiresAt !== dateInputValue(reference.expiresAt)) changes.expiresAt = expiresAt || null;
    if ((barcode.trim() || null) !== reference.barcode) changes.barcode = barcode.trim() || null;
    if (unit !== reference.unit) changes.unit = unit;
    if ((categoryId || null) !== reference.categoryId) changes.categoryId = categoryId || null;
    if (storedAt !== dateInputValue(reference.storedAt)) changes.storedAt = storedAt || null;
    return changes;
  };
  const save = useAction(async () => {
    if (!householdId || !base) return;
    const changes = formChanges(base);
    // Only what this save changes is questioned: an old item's past date was questioned when it was set.
    if (!unlikely.check(unlikelyValues({ quantity: changes.quantity, expiresAt: changes.expiresAt ?? undefined })))
      return;
    await sendChanges(changes, base.updatedAt);
  });
  /** "Save mine anyway" after a conflict: my changes, now on top of their version. */
  const keepMine = useAction(async () => {
    if (!base || !conflict) return;
    await sendChanges(formChanges(base), conflict.updatedAt);
  });
  /** Sends a change with the version it was made on; a 412 shows the other version instead of overwriting it. */
  const sendChanges = async (changes: ItemFields, version: string | undefined) => {
    if (!householdId || !item) return;
    try {
      await api.updateItem(householdId, item.id, changes, version);
    } catch (failure) {
      const current =
        (failure instanceof ApiError ? (failure.body as { item?: Item } | null)?.item : undefined) ?? null;
      if (failure instanceof ApiError && (failure.status === 412 || failure.code === "ITEM_CHANGED")) {
        setConflict(current ?? (await api.item(householdId, item.id)));
        return;
      }
      throw failure;
    }
    announce(t("account.saved"));
    await reload();
  };
  /**
   * The user's own photo change. A photo taken halfway through an edit must not throw away what
   * was typed: the form keeps it, and its version moves past the photo (when nothing else
   * changed), so the save that follows is not taken for someone else's change.
   */
  const photoChanged = (changed: Item) => {
    if (cleanNow.current()) return reload();
    if (base) setBase(versionPastOwnPhoto(base, changed));
    return reload(true);
  };
  const move = useAction(async () => {
    if (!householdId || !item) return;
    await sendChanges({ freezerId, compartmentId }, base?.updatedAt);
  });
  const consume = useAction(async () => {
    if (!householdId || !item) return;
    const left = await api.consumeItem(
      householdId,
      item.id,
      parseDecimal(take),
      takeUnit === item.unit ? undefined : takeUnit,
    );
    if (left.deletedAt) {
      offerShoppingList(householdId, item);
      navigate("/");
      return;
    }
    // What was typed is done; the unit the user chose stays for the next take-out.
    setTake(defaultTakeOut(takeUnit));
    await reload();
  });
  const archive = useAction(async () => {
    if (!householdId || !item) return;
    await api.archiveItem(householdId, item.id);
    offerShoppingList(householdId, item);
    navigate("/");
  });

  if (!item) {
    return (
      <main id="main">
        <h1>{t("item.title")}</h1>
        {loadError ? <ErrorText error={loadError} overrides={{ 404: "item.notFound" }} /> : <p>{t("list.loading")}</p>}
      </main>
    );
  }
  const freezer = freezers.find((candidate) => candidate.id === freezerId);
  const archived = item.deletedAt !== null;
  const readOnly = !online || kept;
  const units = unitsOfEntries(history, item.unit ?? "piece");
  return (
    <main id="main">
      <h1>{item.name}</h1>
      <p>
        {t("item.summary", {
          quantity:
            (item.unit ?? "piece") === "piece" ? formatNumber(item.quantity) : formatAmount(item.quantity, item.unit),
          place: [freezerName(item.freezerId), compartmentName(item.compartmentId)].filter(Boolean).join(" · "),
        })}{" "}
        <Expiry iso={item.expiresAt} />{" "}
        <span class="muted">
          {[categoryName(categories, item.categoryId ?? null), frozenFor(item.storedAt)].filter(Boolean).join(" · ")}
        </span>
      </p>
      {readOnly && !clean() ? (
        <p class="notice">{t("offline.draftKept")}</p>
      ) : kept ? (
        <p class="notice">{t("offline.readOnly")}</p>
      ) : null}
      {conflict && base ? (
        <ConflictPanel
          mine={{
            name,
            quantity: parseDecimal(quantity),
            notes: notes || null,
            expiresAt: expiresAt || null,
            barcode: barcode.trim() || null,
          }}
          base={base}
          theirs={conflict}
          onTakeTheirs={() => show(conflict)}
          onKeepMine={() => void keepMine.run()}
        />
      ) : null}
      {archived ? (
        <p class="notice">
          {item.quantity === 0 ? t("item.isUsedUp") : t("item.isArchived")}{" "}
          {item.quantity === 0 ? (
            <Link href={`/?add=${encodeURIComponent(item.name)}`}>{t("archive.addAgain")}</Link>
          ) : null}
        </p>
      ) : null}

      <ItemPhotoSection item={item} disabled={readOnly || archived} onChanged={photoChanged} />

      <section aria-labelledby="edit-title">
        <h2 id="edit-title">{t("item.edit")}</h2>
        <ActionForm action={save} disabled={readOnly || archived} labels={{ name: "field.itemName" }}>
          <Field id="edit-name" label={t("field.itemName")} required maxLength={200} value={name} onValue={setName} />
          <QuantityField id="edit-quantity" label={t("field.quantity")} value={quantity} onValue={setQuantity} />
          <Select id="edit-unit" label={t("field.unit")} value={unit} onValue={(value) => setUnit(value as ItemUnit)}>
            {ITEM_UNITS.map((option) => (
              <option key={option} value={option}>
                {unitName(option)}
              </option>
            ))}
          </Select>
          <Select id="edit-category" label={t("field.category")} value={categoryId} onValue={setCategoryId}>
            <option value="">{t("category.none")}</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {categoryLabel(category)}
              </option>
            ))}
          </Select>
          <Field id="edit-expires" label={t("field.expiresAt")} type="date" value={expiresAt} onValue={setExpiresAt} />
          <Field id="edit-stored" label={t("field.storedAt")} type="date" value={storedAt} onValue={setStoredAt} />
          <NotesField id="edit-notes" value={notes} onValue={setNotes} />
          <Field
            id="edit-barcode"
            label={t("field.barcode")}
            maxLength={64}
            autocomplete="off"
            value={barcode}
            onValue={setBarcode}
          />
          {unlikely.panel(() => save.run(), "edit-name")}
          <button type="submit" class="primary">
            {t("action.save")}
          </button>
        </ActionForm>
      </section>

      <section aria-labelledby="move-title">
        <h2 id="move-title">{t("item.move")}</h2>
        <ActionForm action={move} disabled={readOnly || archived}>
          <Select
            id="move-freezer"
            label={t("field.freezer")}
            value={freezerId}
            onChange={(event) => {
              const next = freezers.find((candidate) => candidate.id === event.currentTarget.value);
              setFreezerId(event.currentTarget.value);
              setCompartmentId(next?.compartments[0]?.id ?? "");
            }}
          >
            <NamedOptions of={freezers} />
          </Select>
          <Select id="move-compartment" label={t("field.compartment")} value={compartmentId} onValue={setCompartmentId}>
            <NamedOptions of={freezer?.compartments} />
          </Select>
          <button type="submit" disabled={compartmentId === item.compartmentId || !compartmentId}>
            {t("item.moveSubmit")}
          </button>
        </ActionForm>
      </section>

      <section aria-labelledby="consume-title">
        <h2 id="consume-title">{t("item.consume")}</h2>
        <ActionForm
          action={consume}
          disabled={readOnly || archived}
          overrides={{ 404: "item.consumeUnavailable" }}
          labels={{ quantity: "item.consumeQuantity" }}
        >
          <QuantityField
            id="consume-quantity"
            label={t("item.consumeQuantity")}
            {...(takeUnit === item.unit ? { max: item.quantity } : {})}
            value={take}
            onValue={setTake}
          />
          {takeOutUnits(item.unit ?? "piece").length > 1 ? (
            <Select
              id="consume-unit"
              label={t("takeOut.unit")}
              value={takeUnit}
              onValue={(value) => setTakeUnit(value as ItemUnit)}
            >
              {takeOutUnits(item.unit).map((option) => (
                <option key={option} value={option}>
                  {unitName(option)}
                </option>
              ))}
            </Select>
          ) : null}
          <button type="submit">{t("item.consumeSubmit")}</button>
        </ActionForm>
      </section>

      {archived ? null : (
        <section aria-labelledby="archive-title">
          <h2 id="archive-title">{t("item.archive")}</h2>
          <p class="muted">{t("item.archiveHint")}</p>
          <ConfirmButton
            label={t("item.archiveSubmit")}
            question={t("item.archiveQuestion", { name: item.name })}
            confirmLabel={t("item.archiveConfirm")}
            disabled={!online || archive.busy}
            onConfirm={() => archive.run()}
          />
          <ErrorText error={archive.error} />
        </section>
      )}

      <section aria-labelledby="history-title">
        <h2 id="history-title">{t("item.history")}</h2>
        <p class="muted">{t("item.created", { who: item.createdBy.name, when: formatRelative(item.createdAt) })}</p>
        {kept ? <p class="muted">{t("offline.historyUnavailable")}</p> : null}
        {history.length === 0 ? <p class="muted">{t("item.historyEmpty")}</p> : null}
        <ol class="history">
          {history.map((entry) => (
            <li key={entry.id}>
              <time dateTime={entry.changedAt} title={formatDateTime(entry.changedAt)}>
                {historySentence(entry, Date.now(), units.get(entry.id))}
              </time>
            </li>
          ))}
        </ol>
      </section>
    </main>
  );
}

type EditableFields = Pick<Item, "name" | "quantity" | "notes" | "expiresAt" | "barcode">;

/** Someone else saved this item since the form was filled: their values next to mine, and the choice. */
function ConflictPanel(props: {
  mine: EditableFields;
  base: Item;
  theirs: Item;
  onTakeTheirs: () => void;
  onKeepMine: () => void;
}) {
  const labels: Record<keyof EditableFields, MessageKey> = {
    name: "field.itemName",
    quantity: "field.quantity",
    notes: "field.notes",
    expiresAt: "field.expiresAt",
    barcode: "field.barcode",
  };
  const shown = (field: keyof EditableFields, value: string | number | null): string =>
    value === null || value === ""
      ? t("history.nothing")
      : field === "quantity"
        ? formatNumber(Number(value))
        : field === "expiresAt"
          ? formatDate(String(value))
          : String(value);
  const changed = (Object.keys(labels) as (keyof EditableFields)[]).filter(
    (field) => String(props.theirs[field] ?? "") !== String(props.base[field] ?? ""),
  );
  return (
    <div class="notice conflict" role="alert">
      <p>
        <strong>{t("item.changedTitle")}</strong>
      </p>
      <ul>
        {changed.map((field) => (
          <li key={field}>
            {t(labels[field])}: {t("item.changedTheirs", { value: shown(field, props.theirs[field]) })}
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" class="primary" ref={(button) => button?.focus()} onClick={props.onTakeTheirs}>
          {t("item.changedTakeTheirs")}
        </button>
        <button type="button" onClick={props.onKeepMine}>
          {t("item.changedKeepMine")}
        </button>
      </div>
    </div>
  );
}
