/**
 * The House section: the engine's pages for the installation's admins, inside the family app.
 * Loaded on demand (house/loader.tsx), so a family member's first load never carries it.
 */
import { useEffect } from "preact/hooks";
import { Link } from "../components.js";
import { useAppState } from "../store.js";
import { AutomationsPage } from "./automations.js";
import { useHouseData } from "./common.js";
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

const PAGES: { slug: string; title: HouseKey }[] = [
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

/** The House pages under /house/…; `path` is the app's current path. */
export function HouseSection(props: { path: string }) {
  const { online } = useAppState();
  useEffect(() => followHouse(), []);
  const { status: live, revoked } = useLive([]);
  const slug = props.path.replace(/^\/house\/?/, "").replace(/\/$/, "");
  const page = PAGES.find((candidate) => candidate.slug === slug) ?? PAGES[0]!;
  const status = useHouseData<EngineStatus>(revoked ? null : "/status", ["automations", "services"], {
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
          {PAGES.map((candidate) => {
            const href = candidate.slug ? `/house/${candidate.slug}` : "/house";
            return (
              <li key={candidate.slug}>
                <Link href={href} current={candidate === page}>
                  {ht(candidate.title)}
                </Link>
              </li>
            );
          })}
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
