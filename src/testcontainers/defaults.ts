/**
 * The service's image when none is named: the Dockerfile's image as `docker build -t
 * suppression-list-service .` tags it (podman keeps it as `localhost/suppression-list-service:latest`,
 * and finds it under this name too).
 */
export const DEFAULT_IMAGE = 'suppression-list-service:latest';
/** The service's HTTP port in the container. */
export const HTTP_PORT = 3000;
/** The mail listener's port in the container when `withSmtpPort()` names none. */
export const DEFAULT_SMTP_PORT = 2525;
/** The account the container's first keys are for. */
export const DEFAULT_ACCOUNT = 'test';
