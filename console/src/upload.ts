import { ApiError, csrfHeaders, errorOf, reportSessionEnded, UNREACHABLE } from './api.js';

/**
 * POSTs a file as the request's body. XMLHttpRequest rather than fetch: only it reports the upload's
 * progress. Same origin, so the session cookie goes along; the CSRF token goes in its header.
 */
export function upload<T>(
  url: string,
  file: File,
  type: string,
  onProgress: (sent: number, total: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Content-Type', type);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(csrfHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as T);
        } catch {
          reject(
            new ApiError(xhr.status, 'unexpected_answer', 'The service answered with something that is not JSON.'),
          );
        }
      } else {
        const error = errorOf(xhr.status, xhr.statusText, xhr.responseText);
        if (xhr.status === 401) reportSessionEnded(error.message);
        reject(error);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'unreachable', UNREACHABLE));
    xhr.send(file);
  });
}
