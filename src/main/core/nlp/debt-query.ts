// 「小李还欠我多少」「我还欠我哥多少钱」「跟小李还有多少账没清」: a spoken question about what one
// person owes, or is owed, answered from the people's running balances instead of parsed as
// an entry. The person is read with the same rule as in 「借给小李」 (./people.ts).
import { personAt } from './people';

export interface DebtQuery {
  /** The person as spoken (小李, 我哥); the ledger finds the one it means. */
  person: string;
}

const FILLERS = /^(?:嗯|呃|那个|请问|帮我查一下|查一下|问一下)+/;
/** 「小李(现在)(还|一共)欠我(们)多少」 */
const OWES_ME = /^(.+?)(?:现在|目前)?(?:还|一共|总共)?欠(?:我|我们)(?:多少|几)/;
/** 「我(现在)(还)欠小李多少」 */
const I_OWE = /^(?:我|我们)(?:现在|目前)?(?:还|一共|总共)?欠(.+?)(?:多少|几)/;
/** 「跟小李的账」「和我哥还有多少没还」 */
const BETWEEN = /^(?:我)?(?:跟|和|与)(.+?)(?:之间)?(?:的账|还有多少|有多少)/;

export function detectDebtQuery(text: string): DebtQuery | null {
  const plain = text.replace(/[\s，。！？!?,.、~～…]+/g, '').replace(FILLERS, '');
  for (const pattern of [I_OWE, OWES_ME, BETWEEN]) {
    const m = pattern.exec(plain);
    if (!m) continue;
    const words = m[1]!;
    const person = personAt(words, 0);
    // The whole span must be the person: 「这个月餐饮欠我多少」 is not about someone.
    if (person && person === words) return { person };
  }
  return null;
}
