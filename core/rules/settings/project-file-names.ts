/**
 * The names of the project's own files, apart from their readers: the rules that word findings
 * about them run in every analysis, and the readers bring jsonc-parser with them.
 */

/** The project's settings file, found from a fixture's folder upwards. */
export const PROJECT_CONFIG_FILE = 'babelq.json';

/** The file of accepted findings, beside babelq.json. */
export const SUPPRESSIONS_FILE = 'babelq-suppressions.json';
