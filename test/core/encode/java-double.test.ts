/**
 * JDK 17's `Double.toString` (core/encode/java-double.ts) on the 40 vectors measured on OpenJDK
 * 17.0.15 and Temurin 25 (facts part 2, §4), written out here by hand. The comparison with the
 * real `java` over random doubles is in test/oracle/runtimes.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jdk17DoubleToString } from '../../../core/encode/java-double';
import { formatJava19 } from '../../../core/encode/numbers';

/** [bits, JDK 17 text, JDK 25 text]. */
const VECTORS: readonly (readonly [string, string, string])[] = [
  ['44b52d02c7e14af6', '9.999999999999999E22', '1.0E23'],
  ['438f67ea69ed3795', '2.82879384806159008E17', '2.82879384806159E17'],
  ['447c7e83209e90b2', '8.409999999999999E21', '8.41E21'],
  ['444b1ae4d6e2ef50', '1.0E21', '1.0E21'],
  ['3ee4f8b588e368f1', '1.0E-5', '1.0E-5'],
  ['3fb999999999999a', '0.1', '0.1'],
  ['4059000000000000', '100.0', '100.0'],
  ['416312d000000000', '1.0E7', '1.0E7'],
  ['3f50624dd2f1a9fc', '0.001', '0.001'],
  ['0000000000000001', '4.9E-324', '4.9E-324'],
  ['7fefffffffffffff', '1.7976931348623157E308', '1.7976931348623157E308'],
  ['0000000000000000', '0.0', '0.0'],
  ['8000000000000000', '-0.0', '-0.0'],
  ['3ff0000000000000', '1.0', '1.0'],
  ['416312cfe0000000', '9999999.0', '9999999.0'],
  ['416312cfffffffff', '9999999.999999998', '9999999.999999998'],
  ['3f1a36e2eb1c432d', '1.0E-4', '1.0E-4'],
  ['3f505e1c15097c81', '9.99E-4', '9.99E-4'],
  ['419d6f3454000000', '1.23456789E8', '1.23456789E8'],
  ['4340000000000000', '9.007199254740992E15', '9.007199254740992E15'],
  ['43e0000000000000', '9.223372036854776E18', '9.223372036854776E18'],
  ['43dfffffffffffff', '9.2233720368547748E18', '9.223372036854775E18'],
  ['43b7f2b33df5c7ca', '1.72563868593420954E18', '1.7256386859342095E18'],
  ['43aaed0680b59876', '9.7010708216940006E17', '9.701070821694E17'],
  ['43850c5762146180', '1.89585406659670016E17', '1.8958540665967E17'],
  ['437e52737ef9f4c0', '1.36558484901547008E17', '1.36558484901547E17'],
  ['43cd16f0ec7650cf', '4.1922551499510001E18', '4.192255149951E18'],
  ['4470069efb362cda', '4.729999999999999E21', '4.73E21'],
  ['448017f7df96be18', '9.500000000000001E21', '9.5E21'],
  ['44811c2d413f40aa', '1.0099999999999999E22', '1.01E22'],
  ['449017f7df96be18', '1.9000000000000002E22', '1.9E22'],
  ['44952d02c7e14af6', '2.4999999999999998E22', '2.5E22'],
  ['44a52d02c7e14af6', '4.9999999999999996E22', '5.0E22'],
  ['44ada56a4b0835c0', '7.0000000000000004E22', '7.0E22'],
  ['44c52d02c7e14af6', '1.9999999999999998E23', '2.0E23'],
  ['44d52d02c7e14af6', '3.9999999999999997E23', '4.0E23'],
  ['0000000000000002', '1.0E-323', '9.9E-324'],
  ['0000000000000020', '1.58E-322', '1.6E-322'],
  ['4538119c2e76f754', '2.9097380941170695E25', '2.9097380941170696E25'],
  ['0010000000000000', '2.2250738585072014E-308', '2.2250738585072014E-308'],
];

function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

test('the 40 measured vectors: JDK 17 text exactly, and JDK 19+ text where it differs', () => {
  assert.equal(VECTORS.length, 40);
  for (const [bits, jdk17, jdk25] of VECTORS) {
    const x = fromBits(bits);
    assert.equal(jdk17DoubleToString(x), jdk17, `0x${bits}`);
    assert.equal(formatJava19(x), jdk25, `0x${bits} (JDK 19+)`);
    // The negative of each is the same text with a sign.
    if (x !== 0) assert.equal(jdk17DoubleToString(-x), `-${jdk17}`, `-0x${bits}`);
  }
});

test('specials: NaN and the infinities as Java spells them', () => {
  assert.equal(jdk17DoubleToString(NaN), 'NaN');
  assert.equal(jdk17DoubleToString(Infinity), 'Infinity');
  assert.equal(jdk17DoubleToString(-Infinity), '-Infinity');
});
