export { normalizeEmail, emailProblem, MAX_EMAIL_LENGTH } from './domain/email.js';
export { ORIGINS, type Origin, type SuppressionResource } from './domain/suppression.js';
