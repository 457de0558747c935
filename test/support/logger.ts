/** A logger that drops every line: for admins a test starts where the log is not under test. */
export const silentLogger = { info() {}, warn() {}, error() {} };
