import type { Lexicon } from './lexicon.js';

/**
 * Chinese, simplified and traditional (QQ Mail, NetEase 163 and 126, Sina, Aliyun, Exchange in
 * Chinese). Each character is a word, so a gap counts characters.
 */
export const CHINESE: Lexicon = {
  unknownUser: {
    phrases: ['查无此用户', '查無此用戶', '无此用户', '無此用戶', '没有这个用户', '沒有這個用戶'],
    families: [
      {
        subjects: [
          '用户',
          '用戶',
          '收件人',
          '收件者',
          '收信人',
          '邮箱',
          '郵箱',
          '信箱',
          '帐号',
          '账号',
          '帳號',
          '账户',
          '帐户',
          '帳戶',
        ],
        predicates: [
          '不存在',
          '未找到',
          '找不到',
          '无效',
          '無效',
          '已注销',
          '已註銷',
          '已删除',
          '已刪除',
          '未注册',
          '未註冊',
        ],
        qualifiers: ['无效的', '無效的', '不存在的', '未知的'],
        gap: 3,
        notWith: ['发', '發'],
      },
      // The sender's address is `发件人地址`; an IP address is `IP地址`.
      {
        subjects: ['地址', '邮件地址', '郵件地址', '邮箱地址', '郵箱地址'],
        predicates: ['不存在', '无效', '無效', '错误', '錯誤', '不正确', '不正確', '未找到'],
        qualifiers: ['无效的', '無效的', '不存在的', '错误的', '錯誤的'],
        gap: 3,
        notWith: ['人', '发', '發', '您', 'ip'],
      },
    ],
  },
  unknownDomain: {
    families: [
      {
        subjects: ['域名', '网域', '網域', '主机', '主機'],
        predicates: ['不存在', '无效', '無效', '未找到', '找不到'],
        gap: 2,
        notWith: ['发', '發', '您'],
      },
    ],
  },
  fullMailbox: {
    families: [
      {
        subjects: ['邮箱', '郵箱', '信箱', '收件箱', '收件匣', '配额', '配額'],
        predicates: [
          '已满',
          '已滿',
          '满了',
          '滿了',
          '已超出',
          '超出',
          '超过',
          '超過',
          '空间不足',
          '空間不足',
          '容量不足',
        ],
        gap: 3,
      },
    ],
  },
  disabledMailbox: {
    families: [
      {
        subjects: ['帐号', '账号', '帳號', '账户', '帐户', '帳戶', '用户', '用戶', '邮箱', '郵箱'],
        predicates: [
          '已停用',
          '停用',
          '被冻结',
          '已冻结',
          '冻结',
          '凍結',
          '已禁用',
          '禁用',
          '被锁定',
          '已锁定',
          '鎖定',
          '暂停',
          '暫停',
        ],
        gap: 3,
      },
    ],
  },
  blockList: { phrases: ['黑名单', '黑名單'] },
  spam: { phrases: ['垃圾邮件', '垃圾郵件'] },
  tryLater: { phrases: ['稍后再试', '稍後再試', '稍后重试', '稍後重試'] },
  refused: { phrases: ['拒绝', '拒絕'] },
  outOfOffice: { phrases: ['自动回复', '自動回覆', '自動回復', '休假中', '不在办公室', '不在辦公室', '出差中'] },
  senderAddress: { phrases: ['发件人地址', '發件人地址', '发件人域名', '發件人網域', '发件人 ... 不存在'] },
  noConnection: { phrases: ['连接超时', '連接逾時', '无法连接', '無法連接', '连接失败', '連接失敗'] },
};
