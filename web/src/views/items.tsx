import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, type Item, type ItemQuery, type Page } from "../api.js";
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
import { announce, compartmentName, freezerName, recall, remember, useAppState } from "../store.js";
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
  return (
    <li class="item-row" data-item={item.id}>
      <Link href={`/items/${item.id}`} class={item.photo ? "item-link has-photo" : "item-link"}>
        {item.photo ? (
          <PhotoImage url={item.photo.thumbUrl} alt={t("photo.thumbAlt", { name: item.name })} class="item-thumb" />
        ) : null}
        <span class="item-name">{item.name}</span>
        <span class="item-qty">
          <span class="visually-hidden">{t("item.quantityLabel", { quantity: formatNumber(item.quantity) })}</span>
          <span aria-hidden="true">× {formatNumber(item.quantity)}</span>
        </span>
        <span class="item-place">{place(item)}</span>
        <Expiry iso={item.expiresAt} />
      </Link>
      {props.onChanged ? <TakeOneOut item={item} onChanged={props.onChanged} /> : null}
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
  const [freezerId, setFreezerId] = useState(last?.freezerId ?? "");
  const [compartmentId, setCompartmentId] = useState(last?.compartmentId ?? "");
  const [expiresAt, setExpiresAt] = useState("");
  const suggestions = useNameSuggestions(householdId, name);
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
    });
    remember(`lastPlace.${householdId}`, { freezerId: freezer.id, compartmentId: compartment.id });
    setName("");
    setQuantity("1");
    setExpiresAt("");
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
        <Select id="add-freezer" label={t("field.freezer")} value={freezer?.id} onValue={setFreezerId}>
          <NamedOptions of={freezers} />
        </Select>
        <Select id="add-compartment" label={t("field.compartment")} value={compartment?.id} onValue={setCompartmentId}>
          <NamedOptions of={freezer?.compartments} />
        </Select>
        <Field id="add-expires" label={t("field.expiresAt")} type="date" value={expiresAt} onValue={setExpiresAt} />
        <button type="submit" class="primary" disabled={!compartment}>
          {t("add.submit")}
        </button>
      </ActionForm>
    </section>
  );
}

type SortChoice = `${NonNullable<ItemQuery["sort"]>}:${NonNullable<ItemQuery["order"]>}`;
const SORTS: { value: SortChoice; label: Parameters<typeof t>[0] }[] = [
  { value: "createdAt:desc", label: "sort.newest" },
  { value: "expiresAt:asc", label: "sort.expiry" },
  { value: "name:asc", label: "sort.name" },
  { value: "quantity:desc", label: "sort.quantity" },
];

/** The list's search, filters and sort as URL parameters, so Back and a reload keep them. */
interface ListQuery {
  q: string;
  freezer: string;
  compartment: string;
  before: string;
  sort: SortChoice;
}

function readListQuery(): ListQuery {
  const params = new URLSearchParams(location.search);
  const sort = params.get("sort");
  return {
    q: params.get("q") ?? "",
    freezer: params.get("freezer") ?? "",
    compartment: params.get("compartment") ?? "",
    before: params.get("before") ?? "",
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
    });
  }, [debounced, freezerId, compartmentId, expiresBefore, sort]);

  const query = (pageNumber: number): ItemQuery => {
    const [field, order] = sort.split(":") as [ItemQuery["sort"], ItemQuery["order"]];
    return {
      search: debounced.trim() || undefined,
      freezerId: freezerId || undefined,
      compartmentIds: compartmentId ? [compartmentId] : undefined,
      expiresBefore: expiresBefore ? `${expiresBefore}T00:00:00Z` : undefined,
      sort: field,
      order,
      page: pageNumber,
      limit: PAGE_SIZE,
    };
  };
  const filterCount = [freezerId, compartmentId, expiresBefore].filter(Boolean).length;

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
  }, [householdId, debounced, freezerId, compartmentId, expiresBefore, sort, props.version, online]);

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
            : t("list.count", { count: formatNumber(total) })}
      </p>
      <ul class="items">
        {items.map((item) => (
          <ItemRow key={item.id} item={item} onChanged={props.onChanged} />
        ))}
      </ul>
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
