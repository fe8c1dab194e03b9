import { useId, useRef, type Dispatch } from 'react';
import { formatExpiry, fullShareUrl, SHARE_TEXTS, type ShareAction } from '../shareState';
import type { ShareLink } from '../api';

/**
 * A live link: its full URL (read-only, selected on focus) with Copy, when it expires and what
 * it shows, and Revoke (the screen asks first).
 */
export function ShareLinkView({
  link,
  copy,
  busy,
  dispatch,
}: {
  link: ShareLink;
  copy: 'idle' | 'copied' | 'failed';
  busy: boolean;
  dispatch: Dispatch<ShareAction>;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const url = fullShareUrl(link, window.location.origin);

  const onCopy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      dispatch({ type: 'copied', ok: true });
    } catch {
      // the text is selected: Ctrl+C copies it
      input.current?.focus();
      input.current?.select();
      dispatch({ type: 'copied', ok: false });
    }
  };

  return (
    <div className="share-link">
      <label htmlFor={id} className="field-label">
        {SHARE_TEXTS.linkLabel}
      </label>
      <div className="share-url-row">
        <input
          ref={input}
          id={id}
          className="input share-url"
          readOnly
          value={url}
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className="btn btn-primary" onClick={() => void onCopy()}>
          {SHARE_TEXTS.copy}
        </button>
      </div>
      {copy !== 'idle' ? (
        <p className={copy === 'copied' ? 'share-copied' : 'field-error'}>
          {copy === 'copied' ? SHARE_TEXTS.copied : SHARE_TEXTS.copyFailed}
        </p>
      ) : null}
      <ul className="share-facts">
        <li>
          {link.expiresAt
            ? SHARE_TEXTS.expires(formatExpiry(link.expiresAt))
            : SHARE_TEXTS.noExpiry}
        </li>
        <li>{link.includeStories ? SHARE_TEXTS.showsStories : SHARE_TEXTS.hidesStories}</li>
        <li>{link.allowIndexing ? SHARE_TEXTS.indexed : SHARE_TEXTS.notIndexed}</li>
      </ul>
      <div className="share-actions">
        <a className="btn btn-ghost" href={url} target="_blank" rel="noreferrer">
          Open the page
        </a>
        <button
          type="button"
          className="btn btn-danger-ghost"
          aria-disabled={busy || undefined}
          onClick={() => dispatch({ type: 'revoke-ask' })}
        >
          {SHARE_TEXTS.revoke}
        </button>
      </div>
    </div>
  );
}
