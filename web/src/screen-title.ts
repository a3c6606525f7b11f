import { useLayoutEffect } from "preact/hooks";
import { t } from "./i18n/index.js";

/** The title a screen gave itself, for the path it was given on. */
let named: { path: string; title: string } | null = null;

/**
 * A screen whose name the app's table of titles does not know (a House page: its names come
 * with its own chunk) names itself. A layout effect, so the name is there before the app's
 * screen change reads it to set the title and announce the screen; the document title is set
 * here as well for a screen that renders after the change (its chunk was still loading).
 */
export function useScreenTitle(path: string, title: string): void {
  useLayoutEffect(() => {
    named = { path, title };
    document.title = `${title} – ${t("app.title")}`;
  }, [path, title]);
}

/** The title the screen at `path` gave itself, if it did. */
export function namedScreenTitle(path: string): string | null {
  return named?.path === path ? named.title : null;
}
