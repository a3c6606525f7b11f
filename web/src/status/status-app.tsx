/**
 * The engine's console at /status: the House pages alone, for an engine without the family app
 * (createEngine() users) or its admins on the engine port. No accounts and no family navigation;
 * the pages are addressed by the hash (#automations), so the server's routes stay /status,
 * /status/login and /status/logout.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { Announcer } from "../components.js";
import type { HouseConnection } from "../house/connection.js";
import { HouseConnectionContext } from "../house/connection.js";
import { HousePages, housePages } from "../house/house.js";
import { ht } from "../house/messages.js";
import { t } from "../i18n/index.js";

/** The page a hash names; null for one that names none (the skip link's #main keeps the page). */
function slugOf(hash: string, slugs: string[]): string | null {
  const name = decodeURIComponent(hash.replace(/^#/, ""));
  if (name === "" || name === "overview") return "";
  return slugs.includes(name) ? name : null;
}

function useHashSlug(slugs: string[]): string {
  const [slug, setSlug] = useState(() => slugOf(location.hash, slugs) ?? "");
  useEffect(() => {
    const update = () => {
      const next = slugOf(location.hash, slugs);
      if (next !== null) setSlug(next);
    };
    window.addEventListener("hashchange", update);
    return () => window.removeEventListener("hashchange", update);
  }, []);
  return slug;
}

export interface StatusAppProps {
  connection: HouseConnection;
  /** Where the sign-out form posts; null when the engine asks for no sign-in. */
  logoutAction: string | null;
  icon: string | null;
}

export function StatusApp(props: StatusAppProps) {
  const pages = housePages(props.connection);
  const slug = useHashSlug(pages.map((page) => page.slug));
  const first = useRef(true);
  // A layout effect: the focus is on the new heading by the time the page is painted, never
  // after a frame in which a keyboard or screen-reader user is still on the old link.
  useLayoutEffect(() => {
    const page = pages.find((candidate) => candidate.slug === slug) ?? pages[0]!;
    document.title = `${ht(page.title)} · ${ht("house.console.title")}`;
    // A page change moves the focus to its heading, as a page load would start there.
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = document.querySelector<HTMLElement>("main h1");
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }, [slug]);
  return (
    <HouseConnectionContext.Provider value={props.connection}>
      <header class="top console-top">
        <a class="skip" href="#main">
          {t("nav.skip")}
        </a>
        <div class="brand">
          {props.icon ? <img src={props.icon} alt="" width={24} height={24} /> : null}
          <span class="app-name">{ht("house.console.title")}</span>
        </div>
        {props.logoutAction ? (
          <form method="post" action={props.logoutAction} class="console-logout">
            <button type="submit">{ht("house.console.signOut")}</button>
          </form>
        ) : null}
      </header>
      <HousePages slug={slug} />
      <Announcer />
    </HouseConnectionContext.Provider>
  );
}
