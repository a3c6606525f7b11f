/**
 * The House entry point in the family app's first load: it decides from the account's role
 * whether the House pages are loaded at all (a dynamic import: their own chunk, fetched by
 * admins only) and what a member who opens /house sees instead.
 */
import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { LoadFailed } from "../components.js";
import { t } from "../i18n/index.js";
import { useInstallationRole } from "./role.js";

type HouseModule = { HouseSection: FunctionComponent<{ path: string }> };

let loaded: HouseModule | null = null;

export function HouseScreen(props: { path: string }) {
  const role = useInstallationRole();
  const [module, setModule] = useState<HouseModule | null>(loaded);
  const [failure, setFailure] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (role !== "admin" || module) return;
    import("./house.js").then(
      (house) => {
        loaded = house;
        setModule(house);
      },
      (error: unknown) => setFailure(error),
    );
  }, [role, attempt]);
  // A role taken away while the pages are open: they say so themselves (house.tsx).
  if (role === "member" && !module) {
    return (
      <main id="main">
        <h1>{t("nav.house")}</h1>
        <p>{t("house.notAdmin")}</p>
      </main>
    );
  }
  if (failure && !module) {
    return (
      <main id="main">
        <h1>{t("nav.house")}</h1>
        <LoadFailed
          error={failure}
          onRetry={() => {
            setFailure(null);
            setAttempt((value) => value + 1);
          }}
        />
      </main>
    );
  }
  if (!module) {
    return (
      <main id="main">
        <p class="boot">{t("list.loading")}</p>
      </main>
    );
  }
  return <module.HouseSection path={props.path} />;
}
