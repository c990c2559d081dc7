import { useCallback, useEffect, useRef, useState } from 'react';
import { VOICE_TYPES } from './voiceRules';

export type RecorderState = 'idle' | 'starting' | 'recording' | 'sending';

interface Recording {
  recorder: MediaRecorder;
  stream: MediaStream;
  chunks: Blob[];
}

const stopTracks = (stream: MediaStream) => stream.getTracks().forEach((track) => track.stop());

/**
 * Voice recording with the browser's MediaRecorder: idle → recording (elapsed time for
 * the mm:ss timer) → confirm (the recording is handed over for upload) or cancel. The microphone is
 * released whenever recording ends, the composer unmounting included.
 */
export function useVoiceRecorder() {
  const [state, setState] = useState<RecorderState>('idle');
  const [elapsedMs, setElapsedMs] = useState(0);
  const current = useRef<Recording | null>(null);
  /** Bumped by cancel and unmount: a start still waiting for the microphone then lets it go. */
  const attempt = useRef(0);

  useEffect(() => {
    if (state !== 'recording') return;
    const startedAt = Date.now();
    const timer = setInterval(() => setElapsedMs(Date.now() - startedAt), 250);
    return () => clearInterval(timer);
  }, [state]);

  useEffect(
    () => () => {
      attempt.current += 1;
      const rec = current.current;
      current.current = null;
      if (rec) {
        if (rec.recorder.state !== 'inactive') rec.recorder.stop();
        stopTracks(rec.stream);
      }
    },
    [],
  );

  /** Asks for the microphone and starts; false when there is no permission (or no microphone). */
  const start = useCallback(async (): Promise<boolean> => {
    if (current.current) return true;
    const mine = ++attempt.current;
    setState('starting');
    let stream: MediaStream;
    try {
      if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') throw new Error('recording unsupported');
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      if (mine === attempt.current) setState('idle');
      return false;
    }
    // Cancelled (or unmounted) while the browser was granting the microphone: never record.
    if (mine !== attempt.current) {
      stopTracks(stream);
      return true;
    }
    const mimeType = VOICE_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const recording: Recording = { recorder, stream, chunks: [] };
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) recording.chunks.push(e.data);
    };
    recorder.start(250);
    current.current = recording;
    // The timer counts from zero for every recording.
    setElapsedMs(0);
    setState('recording');
    return true;
  }, []);

  const cancel = useCallback(() => {
    attempt.current += 1;
    const rec = current.current;
    current.current = null;
    if (rec) {
      rec.recorder.ondataavailable = null;
      if (rec.recorder.state !== 'inactive') rec.recorder.stop();
      stopTracks(rec.stream);
    }
    setState('idle');
  }, []);

  /** Stops and returns the recording; the caller uploads it, then calls `done`. */
  const confirm = useCallback(async (): Promise<Blob | null> => {
    const rec = current.current;
    if (!rec) return null;
    current.current = null;
    setState('sending');
    const stopped = new Promise<void>((resolve) => rec.recorder.addEventListener('stop', () => resolve(), { once: true }));
    if (rec.recorder.state !== 'inactive') rec.recorder.stop();
    await stopped;
    stopTracks(rec.stream);
    return new Blob(rec.chunks, { type: rec.recorder.mimeType || 'audio/webm' });
  }, []);

  const done = useCallback(() => setState('idle'), []);

  return { state, elapsedMs, start, cancel, confirm, done };
}
