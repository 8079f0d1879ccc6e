/** Suite properties added to a JUnit file as Playwright's junit reporter writes it. */
import { expect, test } from '@playwright/test';
import { addSuiteProperties } from './junit-properties.ts';

const XML = [
  '<testsuites id="" name="" tests="1" failures="0" skipped="0" errors="0" time="1">',
  '<testsuite name="specs/token.spec.ts" timestamp="t" hostname="contract" tests="1" failures="0" skipped="0" time="1" errors="0">',
  '<testcase name="a" classname="specs/token.spec.ts" time="0.1">',
  '<system-out>',
  '<![CDATA[printed: <testsuite name="not a suite">',
  ']]>',
  '</system-out>',
  '</testcase>',
  '</testsuite>',
  '</testsuites>',
].join('\n');

test('every testsuite gets the properties first, escaped; text a test printed is left alone', () => {
  const out = addSuiteProperties(XML, { 'lp.target': 'remote https://api.example.test · "x" & <y>' });
  const block = '<properties>\n<property name="lp.target" value="remote https://api.example.test · &quot;x&quot; &amp; &lt;y&gt;"/>\n</properties>';
  expect(out).toContain(`errors="0">\n${block}\n<testcase`);
  expect(out.split('<properties>')).toHaveLength(2);
  expect(out).toContain('<![CDATA[printed: <testsuite name="not a suite">\n]]>');
  expect(out.startsWith('<testsuites id=""')).toBe(true);
});
