/**
 * Passwords of at least 8 characters that top the published lists of leaked passwords (compiled
 * by hand from those lists' well-known heads). Attackers try these first, so they are refused
 * whatever their length. Compared in lower case, with surrounding spaces removed.
 */
const COMMON_PASSWORDS: readonly string[] = [
  '12345678', '123456789', '1234567890', '12345678910', '123123123', '11111111', '111111111', '1111111111', '00000000',
  '000000000', '0000000000', '88888888', '66666666', '99999999', '12341234', '87654321', '987654321', '0987654321',
  '11223344', '112233445566', '123321123', '147258369', '123654789', '741852963', '159753456', '1q2w3e4r', '1q2w3e4r5t',
  '1q2w3e4r5t6y', '1qaz2wsx', '1qaz2wsx3edc', 'zaq12wsx', 'zaq1zaq1', 'qwertyui', 'qwertyuiop', 'qwerty123', 'qwerty1234',
  'qwerty12345', 'qwe123qwe', 'qweasdzxc', 'asdfghjk', 'asdfghjkl', 'asdf1234', 'zxcvbnm1', 'zxcvbnm123', 'abcd1234',
  'abc12345', 'abcdefgh', 'abcdefg1', 'a1b2c3d4', 'aa123456', 'password', 'password1', 'password12', 'password123',
  'password1234', 'password!', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pa$$word', 'passpass', 'password01', 'mypassword',
  'iloveyou', 'iloveyou1', 'iloveyou2', 'sunshine', 'sunshine1', 'princess', 'princess1', 'football', 'football1',
  'baseball', 'basketball', 'superman', 'batman123', 'starwars', 'trustno1', 'whatever', 'welcome1', 'welcome123',
  'changeme', 'changeme1', 'letmein1', 'letmein123', 'admin123', 'admin1234', 'administrator', 'rootroot', 'computer',
  'internet', 'michelle', 'jennifer', 'jessica1', 'charlie1', 'butterfly', 'chocolate', 'elephant', 'samantha',
  'liverpool', 'chelsea1', 'arsenal1', 'manchester', 'pokemon1', 'pokemon123', 'minecraft', 'fortnite', 'spiderman',
  'mustang1', 'michael1', 'jordan23', 'dragon12', 'monkey12', 'shadow12', 'master12', 'qazwsxedc', 'q1w2e3r4',
  'q1w2e3r4t5', 'q1w2e3r4t5y6', 'azertyuiop', 'azerty123', 'loveyou1', 'lovelove', 'football123', 'secret123',
  'test1234', 'test12345', 'testtest', 'guest123', 'hello123', 'hellohello', 'qwerty12', 'abcd12345', 'asdfasdf',
  'asdf123456', 'summer2024', 'summer2025', 'summer2026', 'winter2024', 'winter2025', 'winter2026', 'spring2025',
  'autumn2025', 'company1', 'company123', 'default1', 'user1234', 'ledger123', 'accounting', 'finance1', 'correcthorse',
  'correct horse battery staple', 'correcthorsebatterystaple',
];

const COMMON = new Set(COMMON_PASSWORDS);

export function isCommonPassword(password: string): boolean {
  const normalised = password.normalize('NFKC').trim().toLowerCase();
  if (COMMON.has(normalised)) return true;
  // One character repeated (aaaaaaaa) or a run such as 123456789 or abcdefghi.
  if (/^(.)\1+$/u.test(normalised)) return true;
  return '01234567890123456789'.includes(normalised) || 'abcdefghijklmnopqrstuvwxyz'.includes(normalised);
}
