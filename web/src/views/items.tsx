import { Fragment } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ApiError, api, type Item, type ItemQuery, type Page, type RememberedBarcode } from "../api.js";
import { BarcodeScanner } from "../barcode-scanner.js";
import {
  ActionForm,
  ErrorText,
  Field,
  Link,
  NamedOptions,
  QuantityField,
  refuseBlank,
  Select,
  useAction,
  useSoftConfirm,
} from "../components.js";
import { addItem, keepItems, keptItems, noteFailure, takeOut } from "../data.js";
import {
  addDays,
  collator,
  daysUntil,
  formatDate,
  formatNumber,
  localDay,
  parseDecimal,
  unlikelyValues,
} from "../format.js";
import { t } from "../i18n/index.js";
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
import { announce, compartmentName, freezerName, recall, remember, useAppState } from "../store.js";
import { offerShoppingList } from "./shopping-list.js";
import { PhotoImage } from "./item-photo.js";

const PAGE_SIZE = 20;
const SEARCH_DELAY_MS = 300;
const EXPIRING_DAYS = 7;
/** The expiring section shows this many and links the rest. */
const EXPIRING_SHOWN = 10;

/** "expires in 3 days", "expired 2 days ago", with a class for its urgency. */
export function Expiry(props: { iso: string | null }) {
  if (!props.iso) return <span class="muted">{t("item.noExpiry")}</span>;
  const days = daysUntil(props.iso);
  const text =
    days < 0
      ? t("item.expired", { date: formatDate(props.iso) })
      : days === 0
        ? t("item.expiresToday")
        : t("item.expiresOn", { date: formatDate(props.iso) });
  return <span class={days < 0 ? "expiry expired" : days <= EXPIRING_DAYS ? "expiry soon" : "expiry"}>{text}</span>;
}

function place(item: Item): string {
  return [freezerName(item.freezerId), compartmentName(item.compartmentId)].filter(Boolean).join(" · ");
}

export function ItemRow(props: { item: Item; onChanged?: () => void }) {
  const { item } = props;
  const categories = useCategories();
  const category = categoryName(categories, item.categoryId ?? null);
  const unit = item.unit ?? "piece";
  const frozen = frozenFor(item.storedAt);
  return (
    <li class="item-row" data-item={item.id}>
      <Link href={`/items/${item.id}`} class={item.photo ? "item-link has-photo" : "item-link"}>
        {item.photo ? (
          <PhotoImage url={item.photo.thumbUrl} alt={t("photo.thumbAlt", { name: item.name })} class="item-thumb" />
        ) : null}
        <span class="item-name">{item.name}</span>
        <span class="item-qty">
          {unit === "piece" ? (
            <>
              <span class="visually-hidden">{t("item.quantityLabel", { quantity: formatNumber(item.quantity) })}</span>
              <span aria-hidden="true">× {formatNumber(item.quantity)}</span>
            </>
          ) : (
            formatAmount(item.quantity, unit)
          )}
        </span>
        <span class="item-place">{[place(item), category].filter(Boolean).join(" · ")}</span>
        <Expiry iso={item.expiresAt} />
        {frozen ? <span class="item-frozen muted">{frozen}</span> : null}
      </Link>
      {/* One of a piece, portion or bag; weights and volumes are taken out on the item's screen. */}
      {props.onChanged && isCounted(unit) ? <TakeOneOut item={item} onChanged={props.onChanged} /> : null}
    </li>
  );
}

/** "−1" on a list row: one tap takes one out (or what is left, when less than one). */
function TakeOneOut(props: { item: Item; onChanged: () => void }) {
  const { householdId } = useAppState();
  const { item } = props;
  const take = useAction(async () => {
    if (!householdId) return;
    const amount = Math.min(1, item.quantity);
    const result = await takeOut(householdId, item, amount);
    if (result !== "queued" && result.deletedAt) offerShoppingList(householdId, item);
    announce(
      result === "queued"
        ? t("offline.queuedTakeOut", { name: item.name })
        : result.deletedAt
          ? t("list.tookLast", { name: item.name })
          : t("list.tookOne", { name: item.name, left: formatNumber(result.quantity) }),
    );
    props.onChanged();
    // The row may be gone (the last one was taken): keep the keyboard in the list, not on <body>.
    requestAnimationFrame(() => {
      const row = document.querySelector<HTMLElement>(`[data-item="${item.id}"] .take-one`);
      (row ?? document.getElementById("list-search"))?.focus();
    });
  });
  return (
    <>
      <button type="button" class="take-one" disabled={take.busy} onClick={() => void take.run()}>
        <span aria-hidden="true">−1</span>
        <span class="visually-hidden">{t("list.takeOne", { name: item.name })}</span>
      </button>
      <ErrorText error={take.error} labels={{ quantity: "item.consumeQuantity" }} />
    </>
  );
}

/** Items that expire within a week (or have expired), soonest first: the home screen's first section. */
export function ExpiringSoon(props: { version: number; onChanged: () => void; onShowAll: (before: string) => void }) {
  const { householdId, online } = useAppState();
  const [items, setItems] = useState<Item[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const beforeDay = addDays(localDay(), EXPIRING_DAYS + 1);
  useEffect(() => {
    if (!householdId) return;
    const key = `expiring.${householdId}`;
    // Within the week means up to the family's today + 7, counted in their calendar days.
    const before = `${addDays(localDay(), EXPIRING_DAYS + 1)}T00:00:00Z`;
    api.items(householdId, { expiresBefore: before, sort: "expiresAt", order: "asc", limit: EXPIRING_SHOWN }).then(
      (page) => {
        remember(key, page);
        setItems(page.data);
        setTotal(page.total);
        setError(null);
      },
      (failure) => {
        noteFailure(failure);
        const cached = recall<Page<Item>>(key);
        setItems(cached?.data ?? null);
        setTotal(cached?.total ?? 0);
        setError(failure);
      },
    );
  }, [householdId, props.version, online]);
  return (
    <section aria-labelledby="expiring-title">
      <h2 id="expiring-title">{t("home.expiring")}</h2>
      {items && items.length === 0 ? <p class="muted">{t("home.expiringNone")}</p> : null}
      <ul class="items">
        {items?.map((item) => (
          <ItemRow key={item.id} item={item} onChanged={props.onChanged} />
        ))}
      </ul>
      {items && total > items.length ? (
        <p>
          <a
            href={`/?before=${beforeDay}&sort=expiresAt:asc`}
            onClick={(event) => {
              event.preventDefault();
              props.onShowAll(beforeDay);
            }}
          >
            {t("home.expiringMore", { count: formatNumber(total - items.length) })}
          </a>
        </p>
      ) : null}
      {online ? <ErrorText error={error} /> : null}
    </section>
  );
}

/** Names used before in the household (in the freezers now or archived), for the quick-add name field. */
function useNameSuggestions(householdId: string | null, text: string): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    const words = text.trim();
    if (!householdId || words.length < 2) {
      setNames([]);
      return;
    }
    const timer = setTimeout(() => {
      Promise.all([
        api.items(householdId, { search: words, limit: 20, sort: "name", order: "asc" }),
        api.searchArchive(householdId, words, 20).catch(() => null),
      ]).then(
        ([active, archived]) => {
          const all = [...active.data, ...(archived?.data ?? [])].map((item) => item.name);
          setNames([...new Set(all)].sort(collator.compare).slice(0, 8));
        },
        () => setNames([]),
      );
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [householdId, text]);
  return names;
}

interface LastPlace {
  freezerId: string;
  compartmentId: string;
}

/** Quick add: name (with suggestions), quantity, place (remembered from the last add), expiry. */
export function QuickAdd(props: { onAdded: () => void; onClose: () => void }) {
  const { householdId, freezers } = useAppState();
  const last = householdId ? recall<LastPlace>(`lastPlace.${householdId}`) : null;
  // "Add again" on a used-up item opens the form with its name (/?add=<name>).
  const [name, setName] = useState(() => new URLSearchParams(location.search).get("add") ?? "");
  const [quantity, setQuantity] = useState("1");
  const [unit, setUnit] = useState<ItemUnit>("piece");
  const [categoryId, setCategoryId] = useState("");
  // Today in the household's time zone, not the phone's.
  const [storedAt, setStoredAt] = useState(localDay());
  const categories = useCategories();
  const [freezerId, setFreezerId] = useState(last?.freezerId ?? "");
  const [compartmentId, setCompartmentId] = useState(last?.compartmentId ?? "");
  const [expiresAt, setExpiresAt] = useState("");
  const suggestions = useNameSuggestions(householdId, name);
  /**
   * What the last barcode filled in. It belongs to that product: another code, or the next item
   * after the add, starts without it, so one product's unit and category do not end up on the
   * next one (and in what the household then remembers for its code).
   */
  const filled = useRef<RememberedBarcode | null>(null);
  const clearFilled = () => {
    const previous = filled.current;
    filled.current = null;
    if (!previous) return;
    // Only what still reads as filled: a value the member chose since stays.
    setName((current) => (current === previous.name ? "" : current));
    if (previous.unit) setUnit((current) => (current === previous.unit ? "piece" : current));
    if (previous.categoryId) setCategoryId((current) => (current === previous.categoryId ? "" : current));
  };
  const scan = useBarcodeMemory(householdId, (found) => {
    clearFilled();
    if (!found) return;
    filled.current = found;
    setName(found.name);
    // What the household remembers for the code, as the member chose it the first time.
    if (found.unit) setUnit(found.unit);
    if (found.categoryId) setCategoryId(found.categoryId);
  });
  const freezer = freezers.find((candidate) => candidate.id === freezerId) ?? freezers[0];
  const compartment =
    freezer?.compartments.find((candidate) => candidate.id === compartmentId) ?? freezer?.compartments[0];
  const nameInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has("add")) return;
    // The name is in the form now; a reload should not fill it in again.
    params.delete("add");
    const rest = params.toString();
    history.replaceState(history.state, "", `${location.pathname}${rest ? `?${rest}` : ""}`);
  }, []);
  const [added, setAdded] = useState(0);
  const unlikely = useSoftConfirm();
  const add = useAction(async () => {
    if (!householdId || !freezer || !compartment) return;
    if (!unlikely.check(unlikelyValues({ quantity: parseDecimal(quantity), expiresAt }))) return;
    const created = await addItem(householdId, {
      name: name.trim(),
      quantity: parseDecimal(quantity),
      freezerId: freezer.id,
      compartmentId: compartment.id,
      ...(expiresAt ? { expiresAt } : {}),
      ...(scan.code ? { barcode: scan.code } : {}),
      ...(unit !== "piece" ? { unit } : {}),
      ...(categoryId ? { categoryId } : {}),
      ...(storedAt ? { storedAt } : {}),
    });
    if (created !== "queued") await scan.rememberFor(created);
    else scan.reset();
    clearFilled();
    remember(`lastPlace.${householdId}`, { freezerId: freezer.id, compartmentId: compartment.id });
    setName("");
    setQuantity("1");
    setExpiresAt("");
    setStoredAt(localDay());
    announce(t(created === "queued" ? "offline.queuedAdd" : "add.added", { name: name.trim() }));
    setAdded((count) => count + 1);
    props.onAdded();
  });
  // After an add the form is re-enabled in a later render; only then can the name take the
  // focus, which keeps a phone's keyboard open for the next item.
  useEffect(() => {
    if (add.busy) return;
    const target = added === 0 && name ? "add-quantity" : "add-name";
    document.getElementById(target)?.focus();
  }, [added, add.busy]);
  const heading = (
    <div class="sheet-head">
      <h2 id="add-title">{t("add.title")}</h2>
      <button type="button" onClick={props.onClose}>
        {t("action.close")}
      </button>
    </div>
  );
  // Escape closes the sheet (not while a name suggestion list is open: the browser closes that first).
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape" && !event.defaultPrevented) props.onClose();
  };
  if (freezers.length === 0) {
    return (
      <section class="sheet" aria-labelledby="add-title" onKeyDown={onKeyDown}>
        {heading}
        <p>
          {t("add.noFreezer")} <Link href="/freezers">{t("nav.freezers")}</Link>
        </p>
      </section>
    );
  }
  return (
    <section class="sheet" id="quick-add" aria-labelledby="add-title" onKeyDown={onKeyDown}>
      {heading}
      <ActionForm
        class="quick-add"
        action={add}
        labels={{ name: "field.itemName" }}
        note={
          <>
            {freezer && freezer.compartments.length === 0 ? <p class="notice">{t("add.noCompartment")}</p> : null}
            {unlikely.panel(() => add.run(), "add-name")}
          </>
        }
      >
        {scan.fields}
        <div class="field">
          <label for="add-name">{t("field.itemName")}</label>
          <input
            id="add-name"
            ref={nameInput}
            required
            maxLength={200}
            list="add-name-suggestions"
            autocomplete="off"
            value={name}
            onInput={(event) => {
              refuseBlank(event.currentTarget);
              setName(event.currentTarget.value);
            }}
          />
          <datalist id="add-name-suggestions">
            {suggestions.map((suggestion) => (
              <option key={suggestion} value={suggestion} />
            ))}
          </datalist>
        </div>
        <QuantityField id="add-quantity" label={t("field.quantity")} value={quantity} onValue={setQuantity} />
        <Select id="add-unit" label={t("field.unit")} value={unit} onValue={(value) => setUnit(value as ItemUnit)}>
          {ITEM_UNITS.map((option) => (
            <option key={option} value={option}>
              {unitName(option)}
            </option>
          ))}
        </Select>
        <Select id="add-category" label={t("field.category")} value={categoryId} onValue={setCategoryId}>
          <option value="">{t("category.none")}</option>
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {categoryLabel(category)}
            </option>
          ))}
        </Select>
        <Select id="add-freezer" label={t("field.freezer")} value={freezer?.id} onValue={setFreezerId}>
          <NamedOptions of={freezers} />
        </Select>
        <Select id="add-compartment" label={t("field.compartment")} value={compartment?.id} onValue={setCompartmentId}>
          <NamedOptions of={freezer?.compartments} />
        </Select>
        <Field id="add-expires" label={t("field.expiresAt")} type="date" value={expiresAt} onValue={setExpiresAt} />
        <Field id="add-stored" label={t("field.storedAt")} type="date" value={storedAt} onValue={setStoredAt} />
        <button type="submit" class="primary" disabled={!compartment}>
          {t("add.submit")}
        </button>
      </ActionForm>
    </section>
  );
}

/**
 * The quick add's barcode: scanned with the camera or typed, then looked up in what the household
 * remembers (or, when the server has a product lookup, in Open Food Facts) to fill in the name.
 * After an add, what the form held is saved for the next scan (PUT …/barcodes/:code).
 */
function useBarcodeMemory(householdId: string | null, fill: (found: RememberedBarcode | null) => void) {
  const [code, setCode] = useState("");
  const [scanning, setScanning] = useState(false);
  const [known, setKnown] = useState<RememberedBarcode | null>(null);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const lookUp = async (typed: string) => {
    const wanted = typed.trim();
    setKnown(null);
    if (!householdId || wanted === "") {
      setNote(null);
      return;
    }
    try {
      const found = await api.barcode(householdId, wanted);
      setCode(found.code);
      setKnown(found);
      fill(found);
      setNote({
        text: t(found.source === "household" ? "barcode.known" : "barcode.lookedUp", { code: found.code }),
        error: false,
      });
      document.getElementById("add-quantity")?.focus();
    } catch (failure) {
      // Another product than the one looked up before: what that one filled in goes.
      if (!(failure instanceof ApiError && failure.status === 400)) fill(null);
      if (failure instanceof ApiError && failure.status === 404) {
        setNote({ text: t("barcode.unknown", { code: wanted }), error: false });
        document.getElementById("add-name")?.focus();
      } else if (failure instanceof ApiError && failure.status === 400) {
        setNote({ text: t("barcode.invalid", { code: wanted }), error: true });
      } else {
        noteFailure(failure);
        // Offline or a server problem: the code still goes with the item, and the name typed is
        // saved for the code once the add is sent, unless the household already had one. Not
        // "new product": the app cannot know that.
        setNote({ text: t("barcode.notLookedUp", { code: wanted }), error: false });
      }
    }
  };
  const reset = () => {
    setCode("");
    setKnown(null);
    setNote(null);
  };
  /**
   * Saves what the item was (name, unit, category) for its code, unless the household already
   * remembers exactly that: the next scan fills them in.
   */
  const rememberFor = async (item: Item) => {
    const saved = item.barcode;
    const before = known;
    reset();
    if (!householdId || !saved) return;
    const same =
      before?.source === "household" &&
      before.code === saved &&
      before.name === item.name &&
      before.unit === item.unit &&
      before.categoryId === item.categoryId;
    if (same) return;
    try {
      await api.rememberBarcode(householdId, saved, { name: item.name, unit: item.unit, categoryId: item.categoryId });
    } catch (failure) {
      noteFailure(failure);
      announce(t("barcode.notRemembered"));
    }
  };
  const fields = (
    <div class="barcode">
      <button type="button" class="scan" onClick={() => setScanning(true)} disabled={scanning}>
        {t("barcode.scan")}
      </button>
      {scanning ? (
        <BarcodeScanner
          onCode={(scanned) => {
            setScanning(false);
            setCode(scanned);
            announce(t("barcode.found", { code: scanned }));
            void lookUp(scanned);
          }}
          onClose={() => setScanning(false)}
        />
      ) : null}
      <div class="field">
        <label for="add-barcode">{t("field.barcode")}</label>
        <div class="barcode-row">
          <input
            id="add-barcode"
            autocomplete="off"
            autocapitalize="off"
            spellcheck={false}
            maxLength={64}
            aria-describedby="add-barcode-hint"
            value={code}
            onInput={(event) => setCode(event.currentTarget.value)}
            onKeyDown={(event) => {
              // Enter here looks the code up instead of adding the item.
              if (event.key !== "Enter") return;
              event.preventDefault();
              void lookUp(event.currentTarget.value);
            }}
          />
          <button type="button" onClick={() => void lookUp(code)} disabled={code.trim() === ""}>
            {t("barcode.lookUp")}
          </button>
        </div>
        <p id="add-barcode-hint" class="muted">
          {t("barcode.typeHint")}
        </p>
      </div>
      {note ? (
        <p class={note.error ? "error" : "notice"} role={note.error ? "alert" : "status"} id="barcode-note">
          {note.text}
        </p>
      ) : null}
    </div>
  );
  return { code: code.trim(), fields, rememberFor, reset };
}

type SortChoice = `${NonNullable<ItemQuery["sort"]>}:${NonNullable<ItemQuery["order"]>}`;
const SORTS: { value: SortChoice; label: Parameters<typeof t>[0] }[] = [
  { value: "createdAt:desc", label: "sort.newest" },
  { value: "expiresAt:asc", label: "sort.expiry" },
  { value: "name:asc", label: "sort.name" },
  { value: "quantity:desc", label: "sort.quantity" },
  { value: "storedAt:asc", label: "sort.frozenOldest" },
];

/** The list's search, filters and sort as URL parameters, so Back and a reload keep them. */
interface ListQuery {
  q: string;
  freezer: string;
  compartment: string;
  before: string;
  sort: SortChoice;
  /** A category id, "none", or "" for all. */
  category: string;
}

function readListQuery(): ListQuery {
  const params = new URLSearchParams(location.search);
  const sort = params.get("sort");
  return {
    q: params.get("q") ?? "",
    freezer: params.get("freezer") ?? "",
    compartment: params.get("compartment") ?? "",
    before: params.get("before") ?? "",
    category: params.get("category") ?? "",
    sort: SORTS.some((option) => option.value === sort) ? (sort as SortChoice) : "createdAt:desc",
  };
}

function writeListQuery(query: ListQuery): void {
  const params = new URLSearchParams(location.search);
  for (const [key, value] of Object.entries(query)) {
    if (value && !(key === "sort" && value === "createdAt:desc")) params.set(key, value);
    else params.delete(key);
  }
  const text = params.toString();
  const url = `${location.pathname}${text ? `?${text}` : ""}`;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(history.state, "", url);
}

/** The item list: search as you type, filters (folded away), sort, and more pages as the user scrolls. */
export function ItemList(props: { version: number; onChanged: () => void }) {
  const { householdId, freezers, online } = useAppState();
  const initial = useMemo(readListQuery, []);
  const [search, setSearch] = useState(initial.q);
  const [debounced, setDebounced] = useState(initial.q);
  const [freezerId, setFreezerId] = useState(initial.freezer);
  const [compartmentId, setCompartmentId] = useState(initial.compartment);
  const [expiresBefore, setExpiresBefore] = useState(initial.before);
  const [categoryFilter, setCategoryFilter] = useState(initial.category);
  const categories = useCategories();
  const [sort, setSort] = useState<SortChoice>(initial.sort);
  const [items, setItems] = useState<Item[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  const [local, setLocal] = useState(false);
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => setDebounced(search), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);
  useEffect(() => {
    writeListQuery({
      q: debounced.trim(),
      freezer: freezerId,
      compartment: compartmentId,
      before: expiresBefore,
      sort,
      category: categoryFilter,
    });
  }, [debounced, freezerId, compartmentId, expiresBefore, sort, categoryFilter]);

  const query = (pageNumber: number): ItemQuery => {
    const [field, order] = sort.split(":") as [ItemQuery["sort"], ItemQuery["order"]];
    return {
      search: debounced.trim() || undefined,
      freezerId: freezerId || undefined,
      compartmentIds: compartmentId ? [compartmentId] : undefined,
      expiresBefore: expiresBefore ? `${expiresBefore}T00:00:00Z` : undefined,
      categoryId: categoryFilter || undefined,
      sort: field,
      order,
      page: pageNumber,
      limit: PAGE_SIZE,
    };
  };
  const filterCount = [freezerId, compartmentId, expiresBefore, categoryFilter].filter(Boolean).length;

  const load = async (pageNumber: number) => {
    if (!householdId) return;
    setLoading(true);
    try {
      const result: Page<Item> = await api.items(householdId, query(pageNumber));
      const next = pageNumber === 1 ? result.data : [...items, ...result.data];
      setItems(next);
      setTotal(result.total);
      setPage(pageNumber);
      setError(null);
      setLocal(false);
      void keepItems(result.data);
    } catch (failure) {
      noteFailure(failure);
      setError(failure);
      if (pageNumber === 1) {
        // Offline (or the server failing): search and filter what this browser kept.
        const kept = await keptItems(householdId, query(1));
        if (kept) {
          setItems(kept);
          setTotal(kept.length);
          setLocal(true);
        }
      }
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void load(1);
  }, [householdId, debounced, freezerId, compartmentId, expiresBefore, sort, categoryFilter, props.version, online]);

  const more = !local && total !== null && items.length < total;
  // Endless scroll: the next page loads when the end of the list comes into view.
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !more || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !loading) void load(page + 1);
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [more, page, loading]);

  const freezer = freezers.find((candidate) => candidate.id === freezerId);
  return (
    <section aria-labelledby="list-title" class="list">
      <h2 id="list-title" class="visually-hidden">
        {t("list.title")}
      </h2>
      <search class="filters">
        <Field id="list-search" label={t("list.search")} type="search" value={search} onValue={setSearch} />
        <details class="more-filters" open={filterCount > 0 || undefined}>
          <summary>{filterCount > 0 ? t("list.filtersActive", { count: filterCount }) : t("list.filters")}</summary>
          <div class="filter-fields">
            <Select
              id="list-freezer"
              label={t("field.freezer")}
              value={freezerId}
              onChange={(event) => {
                setFreezerId(event.currentTarget.value);
                setCompartmentId("");
              }}
            >
              <option value="">{t("list.allFreezers")}</option>
              <NamedOptions of={freezers} />
            </Select>
            <Select
              id="list-compartment"
              label={t("field.compartment")}
              value={compartmentId}
              disabled={!freezer}
              onValue={setCompartmentId}
            >
              <option value="">{t("list.allCompartments")}</option>
              <NamedOptions of={freezer?.compartments} />
            </Select>
            <Select id="list-category" label={t("field.category")} value={categoryFilter} onValue={setCategoryFilter}>
              <option value="">{t("category.all")}</option>
              <option value="none">{t("category.none")}</option>
              {categories.map((category) => (
                <option key={category.id} value={category.id}>
                  {categoryLabel(category)}
                </option>
              ))}
            </Select>
            <Field
              id="list-expires"
              label={t("list.expiresBefore")}
              type="date"
              value={expiresBefore}
              onValue={setExpiresBefore}
            />
            <Select
              id="list-sort"
              label={t("list.sort")}
              value={sort}
              onChange={(event) => setSort(event.currentTarget.value as SortChoice)}
            >
              {SORTS.map((option) => (
                <option key={option.value} value={option.value}>
                  {t(option.label)}
                </option>
              ))}
            </Select>
          </div>
        </details>
      </search>
      <p class="muted list-count" aria-live="polite">
        {local
          ? t("offline.localResults", { count: formatNumber(items.length) })
          : total === null
            ? loading
              ? t("list.loading")
              : ""
            : total === 1
              ? t("list.countOne")
              : t("list.count", { count: formatNumber(total) })}
      </p>
      {/* Groups are headings between sibling lists (not wrappers), so each list stays the list's own. */}
      {groupByCategory(items, categories).map((group) => (
        <Fragment key={group.id}>
          {group.label ? (
            <h3 class="item-group-title" id={`group-${group.id}`}>
              {group.label}
            </h3>
          ) : null}
          <ul class="items" aria-labelledby={group.label ? `group-${group.id}` : undefined}>
            {group.items.map((item) => (
              <ItemRow key={item.id} item={item} onChanged={props.onChanged} />
            ))}
          </ul>
        </Fragment>
      ))}
      <p>
        <Link href="/categories">{t("categories.manage")}</Link>
      </p>
      {online && !local ? <ErrorText error={error} /> : null}
      <div ref={sentinel} />
      {more ? (
        <button type="button" disabled={loading} onClick={() => void load(page + 1)}>
          {t("list.more")}
        </button>
      ) : null}
    </section>
  );
}

/**
 * The loaded items in groups by category, in the categories' order (uncategorised last), each
 * group in the list's order. Without any category in use the list stays one ungrouped list.
 */
function groupByCategory(
  items: Item[],
  categories: ReturnType<typeof useCategories>,
): { id: string; label: string; items: Item[] }[] {
  if (!items.some((item) => item.categoryId)) return [{ id: "all", label: "", items }];
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const key =
      item.categoryId && categories.some((category) => category.id === item.categoryId) ? item.categoryId : "";
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const ordered = categories
    .filter((category) => groups.has(category.id))
    .map((category) => ({ id: category.id, label: categoryLabel(category), items: groups.get(category.id) ?? [] }));
  const none = groups.get("");
  if (none) ordered.push({ id: "none", label: t("category.none"), items: none });
  return ordered;
}
