/** Sending an upload with progress, and reading an audio file's length, in the browser. */
import type { AdminMeditationResponse } from '#shared/contracts/admin.ts';

/** The reply as read here: the meditation on 201, the error shape otherwise (or nothing readable). */
export type UploadResult = { status: number; body: Partial<AdminMeditationResponse> & { error?: { message?: string; details?: { title?: string } } } };

/** XMLHttpRequest rather than fetch: it reports upload progress. */
export function sendWithProgress(form: FormData, onProgress: (percent: number) => void): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/admin/meditations');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    // A proxy's HTML error page parses to null: treat it as a reply with no body.
    xhr.onload = () => {
      resolve({ status: xhr.status, body: ((xhr.response as UploadResult['body'] | null) ?? {}) });
    };
    xhr.onerror = () => {
      reject(new Error('The upload was interrupted. Please check your connection and try again.'));
    };
    xhr.send(form);
  });
}

/** Reads the length of a chosen file in the browser (the server reads it again from the bytes). */
export function readDuration(file: File): Promise<number | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const audio = new Audio();
    const done = (value: number | null) => {
      URL.revokeObjectURL(url);
      resolve(value);
    };
    audio.preload = 'metadata';
    audio.onloadedmetadata = () => {
      done(Number.isFinite(audio.duration) ? audio.duration : null);
    };
    audio.onerror = () => {
      done(null);
    };
    audio.src = url;
  });
}
