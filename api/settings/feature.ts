import { defineFeature } from '../http/endpoints.js';
import { getSettingsEndpoint, updateSettingsEndpoint, type SettingsDeps } from './suppression-settings.js';

/** Where the settings endpoints are mounted. */
const SETTINGS_PATH = '/settings';

/** The account's suppression settings at `/settings/suppressions`; `full_access` keys only. */
export const settingsFeature = defineFeature<SettingsDeps>(SETTINGS_PATH, [
  getSettingsEndpoint,
  updateSettingsEndpoint,
]);
