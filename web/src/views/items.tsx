import { useEffect, useRef, useState } from "preact/hooks";
import { api, type Item, type ItemQuery, type Page } from "../api.js";
import { ActionForm, ErrorText, Field, Link, NamedOptions, QuantityField, Select, useAction } from "../components.js";
import { noteFailure } from "../data.js";
import { addDays, daysUntil, formatDate, formatNumber, localDay } from "../format.js";
import { t } from "../i18n/index.js";
import { compartmentName, freezerName, recall, remember, useAppState } from "../store.js";

const PAGE_SIZE = 20;
const SEARCH_DELAY_MS = 300;
const EXPIRING_DAYS = 7;

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

export function ItemRow(props: { item: Item }) {
  const { item } = props;
  return (
    <li class="item-row">
      <Link href={`/items/${item.id}`} class="item-link">
        <span class="item-name">{item.name}</span>
        <span class="item-qty">
          <span class="visually-hidden">{t("item.quantityLabel", { quantity: formatNumber(item.quantity) })}</span>
          <span aria-hidden="true">× {formatNumber(item.quantity)}</span>
        </span>
        <span class="item-place">{place(item)}</span>
        <Expiry iso={item.expiresAt} />
      </Link>
    </li>
  );
}

/** Items that expire within a week (or have expired), soonest first: the home screen's first section. */
export function ExpiringSoon(props: { version: number }) {
  const { householdId, online } = useAppState();
  const [items, setItems] = useState<Item[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!householdId) return;
    const key = `expiring.${householdId}`;
    // Within the week means up to the family's today + 7, counted in their calendar days.
    const before = `${addDays(localDay(), EXPIRING_DAYS + 1)}T00:00:00Z`;
    api.items(householdId, { expiresBefore: before, sort: "expiresAt", order: "asc", limit: 10 }).then(
      (page) => {
        remember(key, page.data);
        setItems(page.data);
        setError(null);
      },
      (failure) => {
        noteFailure(failure);
        setItems(recall<Item[]>(key));
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
          <ItemRow key={item.id} item={item} />
        ))}
      </ul>
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
          setNames([...new Set(all)].sort((a, b) => a.localeCompare(b)).slice(0, 8));
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
export function QuickAdd(props: { onAdded: () => void }) {
  const { householdId, freezers, online } = useAppState();
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
    document.getElementById("add-quantity")?.focus();
  }, []);
  const add = useAction(async () => {
    if (!householdId || !freezer || !compartment) return;
    await api.createItem(householdId, {
      name,
      quantity: Number(quantity),
      freezerId: freezer.id,
      compartmentId: compartment.id,
      ...(expiresAt ? { expiresAt } : {}),
    });
    remember(`lastPlace.${householdId}`, { freezerId: freezer.id, compartmentId: compartment.id });
    setName("");
    setQuantity("1");
    setExpiresAt("");
    props.onAdded();
    nameInput.current?.focus();
  });
  if (freezers.length === 0) {
    return (
      <section aria-labelledby="add-title">
        <h2 id="add-title">{t("add.title")}</h2>
        <p>
          {t("add.noFreezer")} <Link href="/freezers">{t("nav.freezers")}</Link>
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="add-title">
      <h2 id="add-title">{t("add.title")}</h2>
      <ActionForm
        class="quick-add"
        action={add}
        disabled={!online}
        note={freezer && freezer.compartments.length === 0 ? <p class="notice">{t("add.noCompartment")}</p> : null}
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
            onInput={(event) => setName(event.currentTarget.value)}
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

/** The item list: search as you type, filters, sort, and more pages as the user scrolls. */
export function ItemList(props: { version: number }) {
  const { householdId, freezers, online } = useAppState();
  const [search, setSearch] = useState("");
  const [debounced, setDebounced] = useState("");
  const [freezerId, setFreezerId] = useState("");
  const [compartmentId, setCompartmentId] = useState("");
  const [expiresBefore, setExpiresBefore] = useState("");
  const [sort, setSort] = useState<SortChoice>("createdAt:desc");
  const [items, setItems] = useState<Item[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => setDebounced(search), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

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
  const filtered = Boolean(debounced.trim() || freezerId || compartmentId || expiresBefore);

  const load = async (pageNumber: number) => {
    if (!householdId) return;
    setLoading(true);
    const cacheKey = `items.${householdId}`;
    try {
      const result: Page<Item> = await api.items(householdId, query(pageNumber));
      const next = pageNumber === 1 ? result.data : [...items, ...result.data];
      setItems(next);
      setTotal(result.total);
      setPage(pageNumber);
      setError(null);
      // The offline copy is the unfiltered list as last seen.
      if (!filtered) remember(cacheKey, { data: next, total: result.total });
    } catch (failure) {
      noteFailure(failure);
      setError(failure);
      const cached = recall<{ data: Item[]; total: number }>(cacheKey);
      if (pageNumber === 1 && cached) {
        setItems(cached.data);
        setTotal(cached.total);
      }
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void load(1);
  }, [householdId, debounced, freezerId, compartmentId, expiresBefore, sort, props.version, online]);

  const more = total !== null && items.length < total;
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
    <section aria-labelledby="list-title">
      <h2 id="list-title">{t("list.title")}</h2>
      <search class="filters">
        <Field id="list-search" label={t("list.search")} type="search" value={search} onValue={setSearch} />
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
      </search>
      <p class="muted" aria-live="polite">
        {total === null ? (loading ? t("list.loading") : "") : t("list.count", { count: formatNumber(total) })}
      </p>
      <ul class="items">
        {items.map((item) => (
          <ItemRow key={item.id} item={item} />
        ))}
      </ul>
      {online ? <ErrorText error={error} /> : null}
      <div ref={sentinel} />
      {more ? (
        <button type="button" disabled={loading} onClick={() => void load(page + 1)}>
          {t("list.more")}
        </button>
      ) : null}
    </section>
  );
}
