import { readFileSync } from 'node:fs';

export interface ListenerTls {
  cert: Buffer;
  key: Buffer;
}

function read(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`${variable}: cannot read ${path} (${code})`, { cause: error });
  }
}

/** The certificate and key STARTTLS offers, read once at start; none without both files. */
export function readListenerTls(files: {
  certFile?: string | undefined;
  keyFile?: string | undefined;
}): ListenerTls | undefined {
  if (files.certFile === undefined || files.keyFile === undefined) return undefined;
  return { cert: read('SMTP_TLS_CERT_FILE', files.certFile), key: read('SMTP_TLS_KEY_FILE', files.keyFile) };
}
