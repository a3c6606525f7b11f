import { useState } from "preact/hooks";
import { ApiError, api, type ImportSummary } from "../api.js";
import { ErrorText, useAction } from "../components.js";
import { formatNumber } from "../format.js";
import { t } from "../i18n/index.js";
import { currentHousehold, useAppState } from "../store.js";

/** Hands a downloaded file to the browser to save. */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started the download by the time click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function formatOf(file: File): "json" | "csv" {
  return file.type === "text/csv" || file.name.toLowerCase().endsWith(".csv") ? "csv" : "json";
}

/** The counts of an import or its preview, as sentences. */
function Summary(props: { summary: ImportSummary }) {
  const { summary } = props;
  return (
    <ul class="summary">
      <li>{t("data.freezersCreated", { count: formatNumber(summary.freezersCreated) })}</li>
      <li>{t("data.compartmentsCreated", { count: formatNumber(summary.compartmentsCreated) })}</li>
      <li>{t("data.categoriesCreated", { count: formatNumber(summary.categoriesCreated) })}</li>
      <li>{t("data.itemsCreated", { count: formatNumber(summary.itemsCreated) })}</li>
      <li>{t("data.itemsUnchanged", { count: formatNumber(summary.itemsUnchanged) })}</li>
      <li>{t("data.barcodesRemembered", { count: formatNumber(summary.barcodesRemembered) })}</li>
      <li>{t("data.shoppingEntriesAdded", { count: formatNumber(summary.shoppingEntriesAdded) })}</li>
    </ul>
  );
}

/** A refused file: which rows, and why (the server's words; they name ids and fields). */
function RowProblems(props: { error: unknown }) {
  if (!(props.error instanceof ApiError) || props.error.status !== 400 || props.error.details.length === 0)
    return <ErrorText error={props.error} />;
  return (
    <div role="alert">
      <p class="error">{t("data.problems")}</p>
      <ul>
        {props.error.details.map((detail) => (
          <li key={`${detail.path}:${detail.message}`}>
            {detail.path}: {detail.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The household's export (every member) and import with a preview first (the owner). */
export function HouseholdDataView() {
  const { householdId, user, online } = useAppState();
  const household = currentHousehold();
  const isOwner = household?.ownerId === user?.id;
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportSummary | null>(null);
  const [done, setDone] = useState<ImportSummary | null>(null);
  // A new input after an import or a cancel: choosing the same file again must read it again.
  const [picker, setPicker] = useState(0);
  const download = useAction(async (format: "json" | "csv") => {
    if (!householdId) return;
    const { blob, name } = await api.exportHousehold(householdId, format);
    save(blob, name);
  });
  const check = useAction(async (chosen: File) => {
    if (!householdId) return;
    setPreview(await api.importHousehold(householdId, chosen, formatOf(chosen), true));
  });
  const apply = useAction(async () => {
    if (!householdId || !file) return;
    setDone(await api.importHousehold(householdId, file, formatOf(file), false));
    setPreview(null);
    setFile(null);
    setPicker((count) => count + 1);
  });
  return (
    <main id="main">
      <h1>{t("data.title")}</h1>
      <section aria-labelledby="export-title">
        <h2 id="export-title">{t("data.export")}</h2>
        <p class="muted">{t("data.exportHint")}</p>
        <div class="actions">
          <button type="button" disabled={!online || download.busy} onClick={() => void download.run("json")}>
            {t("data.downloadJson")}
          </button>
          <button type="button" disabled={!online || download.busy} onClick={() => void download.run("csv")}>
            {t("data.downloadCsv")}
          </button>
        </div>
        <ErrorText error={download.error} />
      </section>
      <section aria-labelledby="import-title">
        <h2 id="import-title">{t("data.import")}</h2>
        {!isOwner ? (
          <p class="muted">{t("data.ownerOnly")}</p>
        ) : (
          <>
            <p class="muted">{t("data.importHint")}</p>
            <div class="field">
              <label for="import-file">{t("data.file")}</label>
              <input
                key={picker}
                id="import-file"
                type="file"
                accept=".json,.csv,application/json,text/csv"
                disabled={!online || check.busy || apply.busy}
                onChange={(event) => {
                  const chosen = event.currentTarget.files?.[0] ?? null;
                  setFile(chosen);
                  setPreview(null);
                  setDone(null);
                  if (chosen) void check.run(chosen);
                }}
              />
            </div>
            {check.busy ? <p role="status">{t("data.checking")}</p> : null}
            <RowProblems error={check.error} />
            {preview && file ? (
              <section aria-labelledby="preview-title">
                <h3 id="preview-title">{t("data.preview", { name: file.name })}</h3>
                <Summary summary={preview} />
                <div class="actions">
                  <button
                    type="button"
                    class="primary"
                    disabled={!online || apply.busy}
                    onClick={() => void apply.run()}
                  >
                    {t("data.apply")}
                  </button>
                  <button
                    type="button"
                    disabled={apply.busy}
                    onClick={() => {
                      setPreview(null);
                      setFile(null);
                      setPicker((count) => count + 1);
                    }}
                  >
                    {t("action.cancel")}
                  </button>
                </div>
              </section>
            ) : null}
            <RowProblems error={apply.error} />
            {done ? (
              <div class="notice" role="status">
                <p>{t("data.imported")}</p>
                <Summary summary={done} />
              </div>
            ) : null}
          </>
        )}
      </section>
    </main>
  );
}
