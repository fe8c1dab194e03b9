import { ChatLimits, ChatMessages, roomIdOf } from '@wayfarer/contracts';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError, apiFetch } from '../api/client';
import { fetchConversation } from './api';
import { chatReducer, initialChatState, sendableText, type ChatState } from './chatState';
import { connectChat, type ChatSocket } from './socket';

/** A fresh id for a message sent from here (`crypto.randomUUID` needs a secure context). */
function newClientId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID();
  }
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** The server's message when it gave one (the screen shows it, else 'An error occurred'). */
const serverText = (e: unknown) => (e instanceof ApiError ? e.serverMessage : undefined);

/**
 * One open conversation between `me` and `friendId`: on mount it connects, joins the room and
 * loads the newest history page; on unmount it leaves the room and disconnects. Sending shows the
 * message at once (pending) and confirms it with the ack; after a reconnect it joins again and
 * merges the newest history page (what was missed while away).
 */
export function useChat(me: string, friendId: string) {
  const roomId = roomIdOf(me, friendId);
  const [state, dispatch] = useReducer(chatReducer, initialChatState);
  const stateRef = useRef<ChatState>(state);
  stateRef.current = state;
  const socketRef = useRef<ChatSocket | null>(null);
  const alive = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    alive.current = controller;
    const { signal } = controller;

    dispatch({ type: 'history-start' });
    fetchConversation(roomId, { limit: ChatLimits.firstPage, signal }).then(
      (page) => {
        if (!signal.aborted) dispatch({ type: 'history-loaded', ...page });
      },
      (e: unknown) => {
        if (signal.aborted) return;
        console.error('Failed to load the conversation', e);
        dispatch({ type: 'history-failed', message: serverText(e) });
      },
    );

    const catchUp = () =>
      fetchConversation(roomId, { limit: ChatLimits.pageMax, signal }).then(
        (page) => {
          if (!signal.aborted) dispatch({ type: 'caught-up', ...page });
        },
        (e: unknown) => {
          if (!signal.aborted) console.error('Failed to fetch missed messages', e);
        },
      );

    // while reconnecting, one session check: a revoked or expired session stops the retries
    let checking = false;
    const checkSession = () => {
      if (checking) return;
      checking = true;
      apiFetch('/api/protected', { signal }).then(
        () => undefined,
        (e: unknown) => {
          if (signal.aborted || !(e instanceof ApiError) || e.status !== 401) return;
          socket.pause();
          dispatch({
            type: 'connection',
            connection: 'offline',
            error: ChatMessages.sessionRevoked,
          });
        },
      );
    };

    const socket = connectChat({
      onConnect: (again) => {
        checking = false;
        void socket.join(roomId).then((ack) => {
          if (signal.aborted) return;
          if (ack.ok) {
            dispatch({ type: 'connection', connection: 'connected' });
            // back after a drop, or the first history load failed: fetch the newest page
            if (again || stateRef.current.history === 'failed') void catchUp();
          } else {
            dispatch({ type: 'connection', connection: 'offline', error: ack.error });
          }
        });
      },
      onDown: (connection, error) => {
        dispatch({ type: 'connection', connection, error });
        if (connection === 'reconnecting') checkSession();
      },
      onMessage: (message) => {
        if (message.roomId === roomId) dispatch({ type: 'received', message });
      },
    });
    socketRef.current = socket;

    return () => {
      controller.abort();
      socket.leave(roomId);
      socket.close();
      socketRef.current = null;
    };
  }, [roomId]);

  const deliver = useCallback(
    (clientId: string, text: string, timestamp: string) => {
      const socket = socketRef.current;
      const signal = alive.current?.signal;
      if (!socket) return;
      void socket.send({ to: friendId, from: me, text, timestamp, clientId }).then((ack) => {
        if (signal?.aborted) return;
        if (ack.ok) dispatch({ type: 'ack', clientId, message: ack.message });
        else dispatch({ type: 'ack-failed', clientId, error: ack.error });
      });
    },
    [friendId, me],
  );

  /** Sends `draft` (trimmed); false when there was nothing to send or no connection. */
  const send = useCallback(
    (draft: string): boolean => {
      const text = sendableText(draft);
      if (text === null || stateRef.current.connection !== 'connected') return false;
      const clientId = newClientId();
      const timestamp = new Date().toISOString();
      dispatch({ type: 'send', clientId, from: me, text, timestamp });
      deliver(clientId, text, timestamp);
      return true;
    },
    [deliver, me],
  );

  const retry = useCallback(
    (clientId: string) => {
      const message = stateRef.current.messages.find(
        (m) => m.clientId === clientId && m.status === 'failed',
      );
      if (!message || stateRef.current.connection !== 'connected') return;
      const timestamp = new Date().toISOString();
      dispatch({ type: 'retry', clientId, timestamp });
      deliver(clientId, message.text, timestamp);
    },
    [deliver],
  );

  const loadMore = useCallback(() => {
    const { cursor, loadingMore } = stateRef.current;
    const signal = alive.current?.signal;
    if (cursor === null || loadingMore) return;
    dispatch({ type: 'more-start' });
    fetchConversation(roomId, { before: cursor, limit: ChatLimits.morePage, signal }).then(
      (page) => {
        if (!signal?.aborted) dispatch({ type: 'more-loaded', ...page });
      },
      (e: unknown) => {
        if (signal?.aborted) return;
        console.error('Failed to load older messages', e);
        dispatch({ type: 'more-failed', message: serverText(e) });
      },
    );
  }, [roomId]);

  /** Try again: after a refused handshake or room, or an ended session (signed in again). */
  const reconnect = useCallback(() => {
    dispatch({ type: 'connection', connection: 'connecting' });
    socketRef.current?.reconnect();
  }, []);

  return { state, roomId, send, retry, loadMore, reconnect };
}
