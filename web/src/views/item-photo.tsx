import { useEffect, useRef, useState } from "preact/hooks";
import type { Item } from "../api.js";
import { ConfirmButton, ErrorText } from "../components.js";
import { formatNumber } from "../format.js";
import { t } from "../i18n/index.js";
import { photoObjectUrl, removePhoto, uploadPhoto } from "../photos.js";
import { announce, useAppState } from "../store.js";

/**
 * An item's photo, fetched (with the session's token) once it comes near the screen, so a
 * long list loads only the thumbnails someone scrolls to.
 */
export function PhotoImage(props: { url: string; alt: string; class: string }) {
  const holder = useRef<HTMLSpanElement>(null);
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    setSrc(null);
    setFailed(false);
    const load = () =>
      photoObjectUrl(props.url).then(
        (objectUrl) => {
          if (!cancelled) setSrc(objectUrl);
        },
        () => {
          if (!cancelled) setFailed(true);
        },
      );
    const element = holder.current;
    if (!element || typeof IntersectionObserver === "undefined") {
      void load();
      return () => {
        cancelled = true;
      };
    }
    const watcher = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        watcher.disconnect();
        void load();
      },
      { rootMargin: "200px" },
    );
    watcher.observe(element);
    return () => {
      cancelled = true;
      watcher.disconnect();
    };
  }, [props.url]);
  return (
    <span ref={holder} class={`photo ${props.class}`} data-photo-state={src ? "loaded" : failed ? "failed" : "waiting"}>
      {src ? <img src={src} alt={props.alt} decoding="async" /> : null}
      {failed ? <span class="muted">{t("photo.loadFailed")}</span> : null}
    </span>
  );
}

/** The item page's photo: shown at display size, taken with the camera or picked, changed, removed. */
export function ItemPhotoSection(props: {
  item: Item;
  disabled: boolean;
  /** The item as the upload or removal answered it. */
  onChanged: (changed: Item) => unknown;
}) {
  const { householdId, online } = useAppState();
  const { item } = props;
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const busy = progress !== null;
  const photo = item.photo ?? null;

  const send = async (file: File) => {
    if (!householdId) return;
    setError(null);
    setProgress(0);
    try {
      const changed = await uploadPhoto(householdId, item.id, file, setProgress);
      announce(t("photo.saved"));
      await props.onChanged(changed);
    } catch (failure) {
      setError(failure);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = "";
    }
  };
  const remove = async () => {
    if (!householdId) return;
    setError(null);
    setProgress(0);
    try {
      const changed = await removePhoto(householdId, item.id);
      announce(t("photo.removed"));
      await props.onChanged(changed);
      // The remove button is gone with the photo: the keyboard goes on from "Add photo".
      requestAnimationFrame(() => document.getElementById("photo-pick")?.focus());
    } catch (failure) {
      setError(failure);
    } finally {
      setProgress(null);
    }
  };

  return (
    <section aria-labelledby="photo-title">
      <h2 id="photo-title">{t("photo.title")}</h2>
      {photo ? (
        <PhotoImage url={photo.url} alt={t("photo.alt", { name: item.name })} class="item-photo" />
      ) : (
        <p class="muted">{t("photo.none")}</p>
      )}
      {online ? null : <p class="notice">{t("photo.offline")}</p>}
      <input
        ref={input}
        id="photo-file"
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) void send(file);
        }}
      />
      <div class="actions">
        <button
          type="button"
          id="photo-pick"
          class="primary"
          disabled={props.disabled || !online || busy}
          onClick={() => input.current?.click()}
        >
          {photo ? t("photo.change") : t("photo.add")}
        </button>
        {/* Asks first: a photo removed cannot be brought back, and the button sits next to "Change photo". */}
        {photo ? (
          <ConfirmButton
            label={t("photo.remove")}
            question={t("photo.removeQuestion", { name: item.name })}
            confirmLabel={t("photo.removeConfirm")}
            disabled={props.disabled || !online || busy}
            onConfirm={remove}
          />
        ) : null}
      </div>
      {progress !== null ? (
        <p class="photo-progress" role="status">
          <progress max={1} value={progress} aria-label={t("photo.uploading")} />{" "}
          {t("photo.progress", { percent: formatNumber(Math.round(progress * 100)) })}
        </p>
      ) : null}
      <ErrorText
        error={error}
        overrides={{
          0: "photo.offline",
          413: "photo.tooLarge",
          415: "photo.unsupported",
          PHOTO_PROCESSING_UNAVAILABLE: "photo.serverCannot",
        }}
      />
    </section>
  );
}
