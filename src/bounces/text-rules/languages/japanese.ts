import type { Lexicon } from './lexicon.js';

const NOT_FOUND = [
  '不明',
  '存在しません',
  '存在しない',
  '見つかりません',
  '見つからない',
  '無効',
  '登録されていません',
  '未登録',
];
const NOT_FOUND_BEFORE = ['存在しない', '不明な', '無効な', '未登録の'];

/**
 * Japanese (NTT docomo, au, SoftBank, Notes and Domino, Exchange in Japanese). Each character is a
 * word, so a gap counts characters: a particle or two (`が`, `は`, `には`) fits.
 */
export const JAPANESE: Lexicon = {
  unknownUser: {
    phrases: ['該当ユーザ'],
    families: [
      {
        subjects: ['ユーザー', 'ユーザ', '宛先', '受信者', '受取人', '送信先', 'メールボックス', '利用者'],
        predicates: NOT_FOUND,
        qualifiers: NOT_FOUND_BEFORE,
        gap: 3,
      },
      // The sender's address is `送信者アドレス`, `送信元アドレス`, `差出人アドレス`.
      {
        subjects: ['アドレス', 'メールアドレス'],
        predicates: NOT_FOUND,
        qualifiers: NOT_FOUND_BEFORE,
        gap: 3,
        notWith: ['者', '元', '人'],
      },
      // Domino and Notes: the name is not in the directory.
      {
        subjects: ['ディレクトリ', '名簿'],
        predicates: ['見つかりません', 'ありません', '登録されていません', '存在しません'],
        gap: 6,
      },
    ],
  },
  fullMailbox: {
    phrases: ['容量超過', '容量オーバー', '容量制限'],
    families: [
      {
        subjects: ['メールボックス', '受信箱', '受信ボックス', '受信容量', '保存容量', 'メール容量'],
        predicates: ['いっぱい', '一杯', '満杯', '超過', '超え', 'オーバー', '上限', '空きがありません', '不足'],
        gap: 4,
      },
    ],
  },
  disabledMailbox: {
    families: [
      {
        subjects: ['アカウント', 'ユーザー', 'ユーザ', 'メールボックス', '受信者'],
        predicates: ['停止', '無効化', '凍結', '休止', 'ロック'],
        gap: 4,
      },
    ],
  },
  // The carriers' own settings by which a subscriber refuses mail (受信拒否設定, 指定受信).
  recipientFilter: { phrases: ['受信拒否', '拒否設定', '指定受信'] },
  blockList: { phrases: ['ブラックリスト', 'ブロックリスト'] },
  spam: { phrases: ['迷惑メール', 'スパム'] },
  tryLater: { phrases: ['しばらくしてから', '時間をおいて', '後ほど', 'のちほど', '再度お試し'] },
  refused: { phrases: ['拒否', '拒絶'] },
  outOfOffice: { phrases: ['自動応答', '自動返信', '不在にして', '不在のため', '休暇中', '出張中', '外出中'] },
  senderAddress: {
    phrases: ['送信者アドレス', '送信元アドレス', '差出人アドレス', '送信者 ... 不明', '差出人 ... 不明'],
  },
  noConnection: {
    phrases: ['タイムアウト', '接続できません', '接続に失敗', 'サーバーが見つかりません', 'サーバが見つかりません'],
  },
};
