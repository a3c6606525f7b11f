import { CategoriesView } from "./views/categories.js";
import { useEffect, useRef, useState } from "preact/hooks";
import { Announcer, Link, LoadFailed } from "./components.js";
import { boot, loadHouseholds, selectHousehold } from "./data.js";
import { type MessageKey, t } from "./i18n/index.js";
import { usePath } from "./router.js";
import { namedScreenTitle } from "./screen-title.js";
import { announce, setState, useAppState } from "./store.js";
import { AccountView } from "./views/account.js";
import { ArchiveView } from "./views/archive.js";
import { AuthView } from "./views/auth.js";
import { FreezersView } from "./views/freezers.js";
import { HouseholdView } from "./views/household.js";
import { InviteView } from "./views/invite.js";
import { ItemView } from "./views/item.js";
import { ExpiringSoon, ItemList, QuickAdd } from "./views/items.js";
import { PendingWrites } from "./views/pending.js";
import { ShoppingListView, ShoppingOffer } from "./views/shopping-list.js";
import { HouseholdDataView } from "./views/household-data.js";
import { RemindersView } from "./views/reminders.js";
import { HouseScreen } from "./house/loader.js";
import { useInstallationRole } from "./house/role.js";

function OfflineBanner() {
  const { online } = useAppState();
  if (online) return null;
  return (
    <div class="offline" role="status">
      {t("offline.banner")}
    </div>
  );
}

function HouseholdSwitcher() {
  const { households, householdId } = useAppState();
  if (households.length < 2) return null;
  return (
    <div class="switcher">
      <label for="household-switch">{t("household.switch")}</label>
      <select
        id="household-switch"
        value={householdId ?? ""}
        onChange={(event) => void selectHousehold(event.currentTarget.value).catch(() => undefined)}
      >
        {households.map((household) => (
          <option key={household.id} value={household.id}>
            {household.name}
          </option>
        ))}
      </select>
    </div>
  );
}

const NAV: { href: string; label: Parameters<typeof t>[0] }[] = [
  { href: "/", label: "nav.home" },
  { href: "/shopping-list", label: "nav.shopping" },
  { href: "/archive", label: "nav.archive" },
  { href: "/freezers", label: "nav.freezers" },
  { href: "/household", label: "nav.household" },
  { href: "/account", label: "nav.account" },
];

function Header(props: { path: string }) {
  const { households, householdId } = useAppState();
  // Admins run the house: their navigation has the House pages too.
  const nav = useInstallationRole() === "admin" ? [...NAV, { href: "/house", label: "nav.house" as const }] : NAV;
  const household = households.find((candidate) => candidate.id === householdId);
  const navList = useRef<HTMLUListElement>(null);
  // On a phone the row scrolls sideways: the current screen's entry is brought into it.
  useEffect(() => {
    const current = navList.current?.querySelector<HTMLElement>('a[aria-current="page"]');
    const list = navList.current;
    if (!current || !list || list.scrollWidth <= list.clientWidth) return;
    const entry = current.getBoundingClientRect();
    const row = list.getBoundingClientRect();
    if (entry.left < row.left || entry.right > row.right) list.scrollLeft += entry.left - row.left - 16;
  }, [props.path, nav.length]);
  return (
    <header class="top">
      <a class="skip" href="#main">
        {t("nav.skip")}
      </a>
      <div class="brand">
        <span class="app-name">{t("app.title")}</span>
        {household ? <span class="household-name">{household.name}</span> : null}
      </div>
      <HouseholdSwitcher />
      <nav aria-label={t("nav.label")}>
        <ul ref={navList}>
          {nav.map((entry) => (
            <li key={entry.href}>
              <Link
                href={entry.href}
                current={props.path === entry.href || (entry.href === "/house" && props.path.startsWith("/house/"))}
              >
                {t(entry.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}

function Home() {
  const { householdId, householdsLoaded, householdsError, liveVersion } = useAppState();
  // Bumped after an add or a take-out, so the expiring section and the list both reload.
  const [ownVersion, setVersion] = useState(0);
  const version = ownVersion + liveVersion;
  const [adding, setAdding] = useState(() => new URLSearchParams(location.search).has("add"));
  const [listKey, setListKey] = useState(0);
  const addButton = useRef<HTMLButtonElement>(null);
  const changed = () => setVersion((current) => current + 1);
  if (!householdId && householdsError) {
    return (
      <main id="main">
        <h1>{t("home.loadFailed")}</h1>
        <LoadFailed error={householdsError} onRetry={() => loadHouseholds()} />
      </main>
    );
  }
  if (!householdId && !householdsLoaded) {
    return (
      <main id="main">
        <p class="boot">{t("list.loading")}</p>
      </main>
    );
  }
  if (!householdId) return <HouseholdView welcome />;
  return (
    <main id="main" class="home">
      <h1 class="visually-hidden">{t("nav.home")}</h1>
      <PendingWrites />
      <ItemList key={listKey} version={version} onChanged={changed} />
      <ExpiringSoon
        version={version}
        onChanged={changed}
        onShowAll={(before) => {
          history.replaceState(history.state, "", `/?before=${before}&sort=expiresAt:asc`);
          setListKey((key) => key + 1);
          window.scrollTo(0, 0);
          requestAnimationFrame(() => document.getElementById("list-search")?.focus());
        }}
      />
      {adding ? (
        <QuickAdd
          onAdded={changed}
          onClose={() => {
            setAdding(false);
            requestAnimationFrame(() => addButton.current?.focus());
          }}
        />
      ) : null}
      <button
        type="button"
        ref={addButton}
        class="primary fab"
        aria-expanded={adding}
        aria-controls={adding ? "quick-add" : undefined}
        hidden={adding}
        onClick={() => setAdding(true)}
      >
        <span aria-hidden="true">+ </span>
        {t("add.open")}
      </button>
    </main>
  );
}

function Screen(props: { path: string }) {
  const { path } = props;
  const item = /^\/items\/([^/]+)$/.exec(path);
  if (item?.[1]) return <ItemView itemId={decodeURIComponent(item[1])} />;
  const invite = /^\/invite\/([^/]+)$/.exec(path);
  if (invite?.[1]) return <InviteView code={decodeURIComponent(invite[1])} />;
  if (path === "/house" || path.startsWith("/house/")) return <HouseScreen path={path} />;
  switch (path) {
    case "/shopping-list":
      return <ShoppingListView />;
    case "/archive":
      return <ArchiveView />;
    case "/freezers":
      return <FreezersView />;
    case "/household":
      return <HouseholdView welcome={false} />;
    case "/account":
      return <AccountView />;
    case "/categories":
      return <CategoriesView />;
    case "/reminders":
      return <RemindersView />;
    case "/household/data":
      return <HouseholdDataView />;
    case "/":
    case "/index.html":
      return <Home />;
    default:
      return <NotFound path={path} />;
  }
}

/**
 * Every path the server does not know answers with the app (deep links), so an old or mistyped
 * link lands here: said so, rather than the home screen under an address no tab belongs to.
 */
function NotFound(props: { path: string }) {
  return (
    <main id="main">
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.text", { path: props.path })}</p>
      <p>
        <Link href="/">{t("notFound.home")}</Link>
      </p>
    </main>
  );
}

const SCREEN_TITLES: [RegExp, MessageKey][] = [
  [/^\/items\//, "item.title"],
  [/^\/invite\//, "invite.joinTitle"],
  [/^\/shopping-list$/, "nav.shopping"],
  [/^\/archive$/, "nav.archive"],
  [/^\/freezers$/, "nav.freezers"],
  [/^\/household$/, "nav.household"],
  [/^\/account$/, "nav.account"],
  [/^\/categories$/, "categories.title"],
  [/^\/reminders$/, "nav.reminders"],
  [/^\/household\/data$/, "nav.data"],
  [/^\/house(\/|$)/, "nav.house"],
  [/^\/(index\.html)?$/, "nav.home"],
];

/**
 * A new screen gets its own document title, is announced to screen readers, and takes the
 * focus to its heading (not left on a link that no longer exists, which drops it to <body>).
 */
function useScreenChange(path: string, user: unknown): void {
  const settled = useRef(false);
  const known = user !== undefined;
  const signedIn = Boolean(user);
  useEffect(() => {
    if (!known) return;
    const key = signedIn
      ? (SCREEN_TITLES.find(([pattern]) => pattern.test(path))?.[1] ?? "notFound.title")
      : "auth.login.title";
    const title = (signedIn ? namedScreenTitle(path) : null) ?? t(key);
    document.title = `${title} – ${t("app.title")}`;
    // The first screen after start-up is not a change: nothing to announce, the focus stays put.
    if (!settled.current) {
      settled.current = true;
      return;
    }
    announce(title);
    requestAnimationFrame(() => {
      const heading = document.querySelector<HTMLElement>("main h1");
      if (!heading) return;
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    });
  }, [path, signedIn, known]);
}

/** Something that happened to the user, not by their hand (removed from a household). */
function Notice() {
  const { notice } = useAppState();
  if (!notice) return null;
  return (
    <div class="notice banner" role="alert">
      <p>{notice}</p>
      <button type="button" onClick={() => setState({ notice: null })}>
        {t("offline.dismiss")}
      </button>
    </div>
  );
}

export function App() {
  const { user, bootError } = useAppState();
  const path = usePath();
  useScreenChange(path, user);
  if (user === undefined && bootError) {
    return (
      <main id="main">
        <h1>{t("app.title")}</h1>
        <LoadFailed error={bootError} onRetry={() => boot()} />
      </main>
    );
  }
  if (user === undefined) {
    return (
      <main id="main">
        <p class="boot">{t("list.loading")}</p>
      </main>
    );
  }
  if (user === null) {
    const invite = /^\/invite\/([^/]+)$/.exec(path);
    const code = invite?.[1] ? decodeURIComponent(invite[1]) : null;
    if (code !== useAppState().pendingInvite) setState({ pendingInvite: code });
    return (
      <>
        <OfflineBanner />
        <Notice />
        <AuthView />
        <Announcer />
      </>
    );
  }
  return (
    <>
      <OfflineBanner />
      <Header path={path} />
      <Notice />
      <ShoppingOffer />
      <Screen path={path} />
      <Announcer />
    </>
  );
}
