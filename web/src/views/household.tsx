import { useEffect, useState } from "preact/hooks";
import { api, type HouseholdDetail, type Invite } from "../api.js";
import { ActionForm, ConfirmButton, ErrorText, Link, NameForm, Select, useAction } from "../components.js";
import { departFrom, loadHouseholds, noteFailure, selectHousehold } from "../data.js";
import { browserTimeZone, formatDateTime, formatDay } from "../format.js";
import { t } from "../i18n/index.js";
import { navigate } from "../router.js";
import { currentHousehold, setState, useAppState } from "../store.js";

export function inviteLink(code: string): string {
  return `${location.origin}/invite/${encodeURIComponent(code)}`;
}

/** The invite's QR code, drawn as SVG by a chunk loaded only when an invite is shown. */
function QrCode(props: { text: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    import("uqr").then(
      ({ renderSVG }) => {
        if (current) setSvg(renderSVG(props.text, { border: 2, pixelSize: 6 }));
      },
      () => setSvg(null),
    );
    return () => {
      current = false;
    };
  }, [props.text]);
  if (!svg) return null;
  // The SVG comes from the QR library over our own link text, never from user input.
  return <div class="qr" role="img" aria-label={t("invite.qrLabel")} dangerouslySetInnerHTML={{ __html: svg }} />;
}

function InviteCard(props: { invite: Invite; onRevoked: () => void }) {
  const { householdId, online } = useAppState();
  const link = inviteLink(props.invite.code);
  const [copied, setCopied] = useState(false);
  const [shareError, setShareError] = useState<string | null>(null);
  const revoke = useAction(async () => {
    if (householdId) await api.revokeInvite(householdId, props.invite.id);
    props.onRevoked();
  });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      setShareError(null);
    } catch {
      setShareError(t("invite.copyFailed"));
    }
  };
  const share = async () => {
    try {
      await navigator.share({ title: t("invite.shareTitle"), text: t("invite.shareText"), url: link });
    } catch (error) {
      // Closing the share sheet is not a failure.
      if (!(error instanceof DOMException && error.name === "AbortError")) setShareError(t("invite.shareFailed"));
    }
  };
  return (
    <li class="card invite">
      <label for={`invite-link-${props.invite.id}`}>{t("invite.link")}</label>
      <input id={`invite-link-${props.invite.id}`} readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      <p class="muted">{t("invite.expires", { date: formatDateTime(props.invite.expiresAt) })}</p>
      <QrCode text={link} />
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          {copied ? t("invite.copied") : t("invite.copy")}
        </button>
        {"share" in navigator ? (
          <button type="button" onClick={() => void share()}>
            {t("invite.share")}
          </button>
        ) : null}
        <ConfirmButton
          label={t("invite.revoke")}
          question={t("invite.revokeQuestion")}
          confirmLabel={t("invite.revokeConfirm")}
          disabled={!online}
          onConfirm={() => revoke.run()}
        />
      </div>
      {shareError ? (
        <p class="error" role="alert">
          {shareError}
        </p>
      ) : null}
      <ErrorText error={revoke.error} />
    </li>
  );
}

function Invites() {
  const { householdId, online } = useAppState();
  const [invites, setInvites] = useState<Invite[]>([]);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!householdId || !online) return;
    api.invites(householdId).then(setInvites, (failure) => {
      noteFailure(failure);
      setError(failure);
    });
  }, [householdId, version, online]);
  const create = useAction(async () => {
    if (householdId) await api.createInvite(householdId);
    setVersion(version + 1);
  });
  return (
    <section aria-labelledby="invites-title">
      <h2 id="invites-title">{t("invite.title")}</h2>
      <p class="muted">{t("invite.hint")}</p>
      <button type="button" class="primary" disabled={!online || create.busy} onClick={() => void create.run()}>
        {t("invite.create")}
      </button>
      <ErrorText error={create.error ?? error} />
      <ul class="cards">
        {invites.map((invite) => (
          <InviteCard key={invite.id} invite={invite} onRevoked={() => setVersion(version + 1)} />
        ))}
      </ul>
    </section>
  );
}

function Members(props: { detail: HouseholdDetail; isOwner: boolean; onChanged: () => void }) {
  const { householdId, user, online } = useAppState();
  const [newOwner, setNewOwner] = useState("");
  const remove = useAction(async (userId: string) => {
    if (householdId) await api.removeMember(householdId, userId);
    props.onChanged();
  });
  const transfer = useAction(async () => {
    if (householdId) await api.transfer(householdId, newOwner);
    await loadHouseholds();
    props.onChanged();
  });
  const others = props.detail.members.filter((member) => member.userId !== user?.id);
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">{t("household.members")}</h2>
      <ul class="members">
        {props.detail.members.map((member) => (
          <li key={member.id} class="member">
            <span>
              <strong>{member.name}</strong> <span class="muted">{member.email}</span>{" "}
              <span class={`role role-${member.role.toLowerCase()}`}>
                {member.role === "OWNER" ? t("role.owner") : t("role.member")}
              </span>
              <span class="muted"> · {t("household.joined", { date: formatDay(member.joinedAt) })}</span>
            </span>
            {props.isOwner && member.role !== "OWNER" ? (
              <ConfirmButton
                label={t("household.remove", { name: member.name })}
                question={t("household.removeQuestion", { name: member.name })}
                confirmLabel={t("household.removeConfirm")}
                disabled={!online}
                onConfirm={() => remove.run(member.userId)}
              />
            ) : null}
          </li>
        ))}
      </ul>
      <ErrorText error={remove.error} />
      {props.isOwner && others.length > 0 ? (
        <ActionForm class="inline" action={transfer} disabled={!online}>
          <Select id="transfer-to" label={t("household.transferTo")} required value={newOwner} onValue={setNewOwner}>
            <option value="">{t("household.choose")}</option>
            {others.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.name}
              </option>
            ))}
          </Select>
          <button type="submit">{t("household.transfer")}</button>
        </ActionForm>
      ) : null}
    </section>
  );
}

/**
 * The household: rename, members, ownership, invites, leave; create or switch households.
 * `welcome`: the first screen of an account without a household, greeted here so the page has
 * one main landmark.
 */
export function HouseholdView(props: { welcome?: boolean }) {
  const { householdId, households, user, online } = useAppState();
  const [detail, setDetail] = useState<HouseholdDetail | null>(null);
  const [version, setVersion] = useState(0);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [name, setName] = useState("");
  const [newName, setNewName] = useState("");
  useEffect(() => {
    if (!householdId || !online) return;
    api.household(householdId).then(
      (loaded) => {
        setDetail(loaded);
        setName(loaded.name);
        setLoadError(null);
      },
      (failure) => {
        noteFailure(failure);
        setLoadError(failure);
      },
    );
  }, [householdId, version, online]);
  const household = currentHousehold();
  const isOwner = household?.ownerId === user?.id;
  const rename = useAction(async () => {
    if (householdId) await api.renameHousehold(householdId, name);
    await loadHouseholds();
    setVersion(version + 1);
  });
  const leave = useAction(async () => {
    if (householdId) await departFrom(householdId, () => api.leave(householdId));
    await loadHouseholds();
  });
  const deleteHousehold = useAction(async () => {
    if (!householdId || !household) return;
    await departFrom(householdId, () => api.deleteHousehold(householdId));
    setState({ householdId: null, notice: t("household.deleted", { name: household.name }) });
    await loadHouseholds();
    navigate("/");
  });
  const create = useAction(async () => {
    const created = await api.createHousehold(newName, browserTimeZone());
    setNewName("");
    await loadHouseholds();
    await selectHousehold(created.id);
  });
  return (
    <main id="main">
      <h1>{household ? household.name : props.welcome ? t("home.welcome") : t("household.title")}</h1>
      {props.welcome && !household ? <p>{t("home.noHousehold")}</p> : null}
      <ErrorText error={loadError} />
      {household && isOwner ? (
        <NameForm
          action={rename}
          id="household-name"
          label={t("household.name")}
          value={name}
          onValue={setName}
          submit={t("action.rename")}
        />
      ) : null}
      {detail ? <Members detail={detail} isOwner={isOwner} onChanged={() => setVersion(version + 1)} /> : null}
      {household ? (
        <nav aria-labelledby="household-more-title">
          <h2 id="household-more-title">{t("household.more")}</h2>
          <ul class="links">
            <li>
              <Link href="/reminders">{t("nav.reminders")}</Link>
            </li>
            <li>
              <Link href="/household/data">{t("nav.data")}</Link>
            </li>
          </ul>
        </nav>
      ) : null}
      {household && isOwner ? <Invites /> : null}
      {household && !isOwner ? (
        <section aria-labelledby="leave-title">
          <h2 id="leave-title">{t("household.leave")}</h2>
          <ConfirmButton
            label={t("household.leave")}
            question={t("household.leaveQuestion", { name: household.name })}
            confirmLabel={t("household.leaveConfirm")}
            disabled={!online}
            onConfirm={() => leave.run()}
          />
          <ErrorText error={leave.error} />
        </section>
      ) : null}
      {household && isOwner ? (
        <section aria-labelledby="delete-household-title">
          <h2 id="delete-household-title">{t("household.delete")}</h2>
          <p class="muted">{t("household.deleteHint")}</p>
          <ConfirmButton
            label={t("household.delete")}
            question={t("household.deleteQuestion", { name: household.name })}
            confirmLabel={t("household.deleteConfirm")}
            disabled={!online || deleteHousehold.busy}
            onConfirm={() => deleteHousehold.run()}
          />
          <ErrorText error={deleteHousehold.error} />
        </section>
      ) : null}
      <section aria-labelledby="new-household-title">
        <h2 id="new-household-title">{households.length > 0 ? t("household.another") : t("household.first")}</h2>
        <NameForm
          action={create}
          id="new-household"
          label={t("household.name")}
          value={newName}
          onValue={setNewName}
          submit={t("household.create")}
          primary
        />
      </section>
    </main>
  );
}
