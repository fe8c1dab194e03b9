import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CloseSmallIcon } from '../../components/icons';
import { useModalDialog } from '../../components/useModalDialog';
import { localDateString } from '../../trips/tripForm';
import { SHARE_TEXTS } from '../shareState';
import { useShareLink } from '../useShareLink';
import { ShareLinkForm } from './ShareLinkForm';
import { ShareLinkView } from './ShareLinkView';

/**
 * The owner's share dialog of a trip (the trip screen's Share button): a modal
 * `<dialog>` (the page is inert behind it, Escape or Close closes it and the focus returns to
 * the opener) holding the trip's link, or the form of a new one. Revoke asks first, as Delete
 * does. Rules: `sharing/shareState`.
 */
export function SharePanel({
  tripId,
  tripName,
  open,
  onClose,
}: {
  tripId: string;
  tripName: string;
  open: boolean;
  onClose: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ref = useModalDialog(open, () => headingRef.current?.focus());
  const titleId = useId();
  const [attempt, setAttempt] = useState(0);
  const [state, dispatch, revoke] = useShareLink(tripId, open, attempt);
  const today = localDateString();

  const close = () => {
    if (state.busy?.kind !== 'revoke') onClose();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Escape') return;
    // ours, not the browser's: the page's other Escape handlers (the map) leave it alone
    event.preventDefault();
    event.stopPropagation();
    close();
  };

  let body;
  if (state.load.status === 'loading') {
    body = (
      <div className="share-loading" role="status">
        <span className="visually-hidden">{SHARE_TEXTS.loading}</span>
        <span className="skeleton skeleton-line" style={{ width: '70%' }} aria-hidden="true" />
        <span className="skeleton skeleton-line" style={{ width: '45%' }} aria-hidden="true" />
      </div>
    );
  } else if (state.load.status === 'failed') {
    body = (
      <div className="state-card state-card--error">
        <p role="alert">{state.load.message}</p>
        <button type="button" className="btn btn-ghost" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </div>
    );
  } else if (state.link) {
    body = (
      <ShareLinkView
        link={state.link}
        copy={state.copy}
        busy={state.busy !== null}
        dispatch={dispatch}
      />
    );
  } else {
    body = <ShareLinkForm state={state} dispatch={dispatch} today={today} />;
  }

  return (
    <>
      <dialog
        ref={ref}
        className="confirm-dialog share-dialog"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
        onCancel={(event) => {
          event.preventDefault();
          close();
        }}
      >
        {open ? (
          <div className="confirm-body">
            <header className="share-header">
              <h2 id={titleId} ref={headingRef} className="confirm-title" tabIndex={-1}>
                {SHARE_TEXTS.title}
              </h2>
              <button
                type="button"
                className="icon-button share-close"
                aria-label={SHARE_TEXTS.close}
                onClick={close}
              >
                <CloseSmallIcon />
              </button>
            </header>
            <p className="confirm-description">
              <strong>{tripName}</strong> · {SHARE_TEXTS.intro}
            </p>
            {body}
            <p className="visually-hidden" aria-live="polite">
              {state.announcement}
            </p>
          </div>
        ) : null}
      </dialog>
      <ConfirmDialog
        open={state.confirmingRevoke}
        title={SHARE_TEXTS.revokeTitle}
        description={<p>{SHARE_TEXTS.revokeDetail}</p>}
        confirmLabel={SHARE_TEXTS.revoke}
        cancelLabel="Keep"
        busy={state.busy?.kind === 'revoke'}
        error={state.revokeError}
        onConfirm={revoke}
        onCancel={() => dispatch({ type: 'revoke-cancel' })}
      />
    </>
  );
}
