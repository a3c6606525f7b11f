import { useState } from "preact/hooks";
import { Link, LoadFailed } from "./components.js";
import { boot, loadHouseholds, selectHousehold } from "./data.js";
import { t } from "./i18n/index.js";
import { usePath } from "./router.js";
import { setState, useAppState } from "./store.js";
import { AccountView } from "./views/account.js";
import { ArchiveView } from "./views/archive.js";
import { AuthView } from "./views/auth.js";
import { FreezersView } from "./views/freezers.js";
import { HouseholdView } from "./views/household.js";
import { InviteView } from "./views/invite.js";
import { ItemView } from "./views/item.js";
import { ExpiringSoon, ItemList, QuickAdd } from "./views/items.js";

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
  { href: "/archive", label: "nav.archive" },
  { href: "/freezers", label: "nav.freezers" },
  { href: "/household", label: "nav.household" },
  { href: "/account", label: "nav.account" },
];

function Header(props: { path: string }) {
  const { households, householdId } = useAppState();
  const household = households.find((candidate) => candidate.id === householdId);
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
        <ul>
          {NAV.map((entry) => (
            <li key={entry.href}>
              <Link href={entry.href} current={props.path === entry.href}>
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
  const { householdId, householdsLoaded, householdsError } = useAppState();
  // Bumped after an add, so the expiring section and the list both reload.
  const [version, setVersion] = useState(0);
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
  if (!householdId) {
    return (
      <main id="main">
        <h1>{t("home.welcome")}</h1>
        <p>{t("home.noHousehold")}</p>
        <HouseholdView />
      </main>
    );
  }
  return (
    <main id="main">
      <h1 class="visually-hidden">{t("nav.home")}</h1>
      <ExpiringSoon version={version} />
      <QuickAdd onAdded={() => setVersion(version + 1)} />
      <ItemList version={version} />
    </main>
  );
}

function Screen(props: { path: string }) {
  const { path } = props;
  const item = /^\/items\/([^/]+)$/.exec(path);
  if (item?.[1]) return <ItemView itemId={decodeURIComponent(item[1])} />;
  const invite = /^\/invite\/([^/]+)$/.exec(path);
  if (invite?.[1]) return <InviteView code={decodeURIComponent(invite[1])} />;
  switch (path) {
    case "/archive":
      return <ArchiveView />;
    case "/freezers":
      return <FreezersView />;
    case "/household":
      return <HouseholdView />;
    case "/account":
      return <AccountView />;
    default:
      return <Home />;
  }
}

export function App() {
  const { user, bootError } = useAppState();
  const path = usePath();
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
        <AuthView />
      </>
    );
  }
  return (
    <>
      <OfflineBanner />
      <Header path={path} />
      <Screen path={path} />
    </>
  );
}
