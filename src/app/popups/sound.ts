import type { MessageType } from '../../../engine/client/host/popups';

/** Tone of each message type: success, warning and error sound; info is silent. */
const TONES: Record<MessageType, { frequency: number; seconds: number } | null> = {
  success: { frequency: 880, seconds: 0.15 },
  warning: { frequency: 600, seconds: 0.25 },
  error: { frequency: 300, seconds: 0.4 },
  info: null,
};

let context: AudioContext | undefined;

/** Plays the type's tone with Web Audio; a failure is only logged. */
export function playPopupSound(type: MessageType): void {
  const tone = TONES[type];
  if (!tone) return;
  try {
    const AudioContextClass =
      window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AudioContextClass) throw new Error('Web Audio is not available');
    context ??= new AudioContextClass();
    const ctx = context;
    if (ctx.state === 'suspended') ctx.resume().catch((error: unknown) => console.warn('popup sound failed', error));
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.frequency.value = tone.frequency;
    gain.gain.value = 0.1;
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start();
    oscillator.stop(ctx.currentTime + tone.seconds);
  } catch (error) {
    console.warn('popup sound failed', error);
  }
}
