/** Locally stored sound preference (default on). */
export const SOUND_PREFERENCE_KEY = 'atende:sound-notification';

export function soundEnabled(): boolean {
  return localStorage.getItem(SOUND_PREFERENCE_KEY) !== 'off';
}
export function setSoundEnabled(on: boolean): void {
  localStorage.setItem(SOUND_PREFERENCE_KEY, on ? 'on' : 'off');
}

let audio: AudioContext | null = null;
/** A short two-tone chime, synthesised so no asset has to load before the first notice. */
function chime(): void {
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [i, freq] of [880, 1175].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.15);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.15 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.15 + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.15);
      osc.stop(now + i * 0.15 + 0.32);
    }
  } catch (error) {
    console.info('sound notification unavailable', error);
  }
}

/**
 * Sounds and desktop notifications only when the window is unfocused; returns false when
 * focused, so the caller shows an in-page toast instead. Denied or unsupported notifications are only logged.
 */
export function notifyUnfocused(text: string): boolean {
  if (typeof document === 'undefined' || document.hasFocus()) return false;
  if (soundEnabled()) chime();
  try {
    if (typeof Notification === 'undefined') console.info('desktop notifications unsupported');
    else if (Notification.permission === 'granted') new Notification(text);
    else if (Notification.permission === 'default')
      void Notification.requestPermission().then((p) =>
        p === 'granted' ? new Notification(text) : console.info('desktop notification', p),
      );
    else console.info('desktop notifications denied');
  } catch (error) {
    console.info('desktop notification failed', error);
  }
  return true;
}
