import { useEffect } from "preact/hooks";
import { api } from "../api.js";
import { ErrorText, Link, useAction } from "../components.js";
import { loadHouseholds, selectHousehold } from "../data.js";
import { t } from "../i18n/index.js";
import { navigate } from "../router.js";
import { setState } from "../store.js";

/** /invite/<code> while signed in: accept it and open the household. */
export function InviteView(props: { code: string }) {
  const accept = useAction(async () => {
    const household = await api.acceptInvite(props.code);
    setState({ pendingInvite: null });
    await loadHouseholds();
    await selectHousehold(household.id);
    navigate("/", true);
  });
  useEffect(() => {
    void accept.run();
  }, [props.code]);
  return (
    <main id="main" class="narrow">
      <h1>{t("invite.joinTitle")}</h1>
      {accept.busy ? <p>{t("invite.joining")}</p> : null}
      <ErrorText
        error={accept.error}
        overrides={{ 410: "invite.gone", 404: "invite.notFound", 409: "invite.alreadyMember" }}
      />
      {accept.error ? (
        <p>
          <Link href="/" class="button">
            {t("invite.toHome")}
          </Link>
        </p>
      ) : null}
    </main>
  );
}
