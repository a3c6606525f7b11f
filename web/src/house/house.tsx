/**
 * The House pages: the engine's pages for the installation's admins inside the family app (loaded
 * on demand by house/loader.tsx, so a family member's first load never carries them), and the
 * same pages as the engine's own console at /status (status/main.tsx). Each entry passes its
 * HouseConnection; the pages never name a URL of their own.
 */
import { useEffect } from "preact/hooks";
import { t } from "../i18n/index.js";
import { useScreenTitle } from "../screen-title.js";
import { useAppState } from "../store.js";
import { AutomationsPage } from "./automations.js";
import { HouseLink, useHouseData } from "./common.js";
import { type HouseConnection, HouseConnectionContext, useHouseConnection } from "./connection.js";
import { familyConnection } from "./family-connection.js";
import { followHouse, useLive } from "./house-live.js";
import { type HouseKey, ht } from "./messages.js";
import {
  AdminsPage,
  DevicesPage,
  type EngineStatus,
  HomeKitPage,
  LogsPage,
  OverviewPage,
  ServicesPage,
  StatePage,
} from "./pages.js";

export interface HousePage {
  slug: string;
  title: HouseKey;
}

const PAGES: HousePage[] = [
  { slug: "", title: "house.overview" },
  { slug: "automations", title: "house.automations" },
  { slug: "devices", title: "house.devices" },
  { slug: "state", title: "house.state" },
  { slug: "services", title: "house.services" },
  { slug: "logs", title: "house.logs" },
  { slug: "homekit", title: "house.homekit" },
  { slug: "admins", title: "house.admins" },
];

function Page(props: { slug: string; status: EngineStatus | undefined; statusError: unknown }) {
  switch (props.slug) {
    case "automations":
      return <AutomationsPage />;
    case "devices":
      return <DevicesPage />;
    case "state":
      return <StatePage />;
    case "services":
      return <ServicesPage />;
    case "logs":
      return <LogsPage />;
    case "homekit":
      return <HomeKitPage />;
    case "admins":
      return <AdminsPage />;
    default:
      return <OverviewPage status={props.status} error={props.statusError} />;
  }
}

/** The pages an entry shows: the Admins page only where there are accounts. */
export function housePages(connection: HouseConnection): HousePage[] {
  return connection.accounts ? PAGES : PAGES.filter((page) => page.slug !== "admins");
}

/** The House section of the family app under /house/…; `path` is the app's current path. */
export function HouseSection(props: { path: string }) {
  const slug = props.path.replace(/^\/house\/?/, "").replace(/\/$/, "");
  const page = housePages(familyConnection).find((candidate) => candidate.slug === slug);
  useScreenTitle(props.path, `${ht(page?.title ?? "house.overview")} – ${t("nav.house")}`);
  return (
    <HouseConnectionContext.Provider value={familyConnection}>
      <HousePages slug={slug} />
    </HouseConnectionContext.Provider>
  );
}

/** The House page `slug` ("" or an unknown slug: the overview) with the section's navigation. */
export function HousePages(props: { slug: string }) {
  const connection = useHouseConnection();
  const { online } = useAppState();
  useEffect(() => followHouse(connection), [connection]);
  const { status: live, revoked } = useLive([]);
  const pages = housePages(connection);
  const page = pages.find((candidate) => candidate.slug === props.slug) ?? pages[0]!;
  const status = useHouseData<EngineStatus>(revoked ? null : "/status", ["automations", "services", "engine"], {
    bodyOn: [503],
  });
  if (revoked) {
    return (
      <main id="main">
        <h1>{ht("house.title")}</h1>
        <p role="alert">{ht("house.revoked")}</p>
      </main>
    );
  }
  const engine = status.data;
  return (
    <main id="main" class="house">
      <nav aria-label={ht("house.sections")} class="house-nav">
        <ul>
          {pages.map((candidate) => (
            <li key={candidate.slug}>
              <HouseLink slug={candidate.slug} current={candidate === page}>
                {ht(candidate.title)}
              </HouseLink>
            </li>
          ))}
        </ul>
      </nav>
      <div class="house-head">
        <h1>{ht(page.title)}</h1>
        <span class={`live ${live}`} id="house-live" role="status">
          {ht(live === "on" ? "house.live.on" : live === "connecting" ? "house.live.connecting" : "house.live.off")}
        </span>
      </div>
      {!online ? <p class="offline-note">{ht("house.offline")}</p> : null}
      {engine && !engine.checks.mqtt ? (
        <p class="banner warn" role="status">
          {ht("house.mqttDown")}
        </p>
      ) : null}
      {engine?.role === "standby" ? (
        <p class="banner" role="status">
          {ht("house.standby", { instance: engine.instance ?? "?", leader: engine.leader ?? ht("house.unknown") })}
        </p>
      ) : null}
      <Page slug={page.slug} status={engine} statusError={status.error} />
    </main>
  );
}
