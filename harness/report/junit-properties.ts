/**
 * Properties on every `<testsuite>` of a JUnit file: Playwright's junit reporter writes per-test
 * properties (the annotations) but offers none per suite, and a CI's test view shows a suite's
 * properties beside its tests. The summary reporter adds the run's target this way once the junit
 * reporter has written its file. JUnit's schema puts `<properties>` first in a `<testsuite>`.
 */

/** The file with `<properties>` as the first child of each `<testsuite>`; text in CDATA is left alone. */
export function addSuiteProperties(xml: string, properties: Readonly<Record<string, string>>): string {
  const entries = Object.entries(properties);
  if (entries.length === 0) return xml;
  const block = ['<properties>', ...entries.map(([name, value]) => `<property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`), '</properties>'].join(
    '\n',
  );
  // Output a test printed sits in CDATA sections: a `<testsuite` there is text, not a suite.
  return xml
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) => (part.startsWith('<![CDATA[') ? part : part.replace(/<testsuite\b[^>]*>/g, (open) => `${open}\n${block}`)))
    .join('');
}

function escapeXml(text: string): string {
  return (
    text
      .replace(/[&"'<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', "'": '&apos;', '<': '&lt;', '>': '&gt;' })[c] ?? c)
      // Characters XML 1.0 does not allow at all.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}
