// The page's own words in English and Simplified Chinese, and the language chosen: a
// switch (kept in this browser), else the browser's languages, else English. The API is
// asked for the same language (Accept-Language), so its refusals and reasons match.

export const LANGUAGES = { en: 'EN', 'zh-Hans': '中文' };

export const CATALOGUE = {
  en: {
    'site.tagline': 'Brass: Birmingham and Pittsburgh, played on the engine service',
    'site.skip': 'Skip to the content',
    'site.language': 'Language',
    'error.title': 'Something went wrong',
    'error.back': 'Back to the lobby',
    'lobby.create': 'Create a game',
    'lobby.yours': 'Your games',
    'lobby.openLink': 'Open a link',
    'lobby.public': 'Public games',
    'lobby.ruleset': 'Ruleset',
    'lobby.players': 'Players',
    'lobby.playersN': '{n} players',
    'lobby.seats': 'Seats',
    'lobby.seatN': 'Seat {n}',
    'lobby.seatWho': 'Seat {n}: who plays',
    'lobby.seatName': 'Seat {n}: name',
    'lobby.options': 'Options',
    'lobby.visibility': 'Visibility',
    'lobby.public.option': 'Public (listed in the lobby)',
    'lobby.unlisted.option': 'Unlisted (by link only)',
    'lobby.seed': 'Deal seed (optional)',
    'lobby.seedPlaceholder': 'random',
    'lobby.createButton': 'Create game',
    'lobby.created': 'Game created',
    'lobby.roleMe': 'Me (play in this browser)',
    'lobby.roleInvite': 'Invite link (a person)',
    'lobby.roleOpen': 'Open seat (anyone may join)',
    'lobby.bot': 'Bot: {name}',
    'lobby.provisional': 'Provisional data: {list}.',
    'lobby.clockAndLeaving': 'Clock and leaving',
    'lobby.clock': 'Clock',
    'lobby.noClock': 'No clock',
    'lobby.fischer': 'Time per game plus an increment per turn',
    'lobby.perTurn': 'A fixed time per turn',
    'lobby.minutes': 'Minutes per player',
    'lobby.increment': 'Seconds added per turn',
    'lobby.turnSeconds': 'Seconds per turn',
    'lobby.onTimeout': 'When time runs out',
    'lobby.onResign': 'When a player resigns',
    'lobby.join': 'Join',
    'lobby.watch': 'Watch',
    'lobby.replay': 'Replay',
    'lobby.open': 'Open',
    'lobby.playSeat': 'Play seat {n}',
    'lobby.refresh': 'Refresh',
    'lobby.openOnly': ' Only games with open seats',
    'lobby.noPublic': 'No public games yet.',
    'lobby.noneYet': 'None yet: create one, or open an invite link.',
    'lobby.linkOrId': 'Link or game id',
    'lobby.linkPlaceholder': 'an invite link or a game id',
    'join.title': 'Join a game',
    'join.yourName': 'Your name',
    'join.loading': 'Loading the game…',
    'game.lobby': 'Lobby',
    'game.gameN': 'Game {id}',
    'game.waitingPlayers': 'Waiting for players',
    'game.over': 'Game over',
    'game.yourTurn': 'Your turn',
    'game.toPlay': '{name} to play',
    'game.spectating': 'Spectating',
    'game.you': 'You: {name}',
    'game.yourMove': 'Your move',
    'game.finalScores': 'Final scores',
    'game.watchReplay': 'Watch the replay',
    'game.confirm': 'Confirm',
    'game.cancel': 'Cancel',
    'game.undo': 'Undo',
    'game.resign': 'Resign',
    'game.resignAsk': 'Resign…',
    'game.resignQuestion': 'Resign this game?',
    'game.keepPlaying': 'Keep playing',
    'game.rematch': 'Rematch',
    'game.rematchAccept': 'Accept the rematch ({name} proposed it)',
    'game.rematchWaiting': 'Rematch proposed: waiting for the other players.',
    'game.rematchCheck': 'Check again',
    'game.rematchPlay': 'Play the rematch',
    'game.spectatorDelayOne': 'Spectators see this game 1 whole turn behind until it ends.',
    'game.spectatorDelay': 'Spectators see this game {n} whole turns behind until it ends.',
    'game.wholeActions': 'Whole actions',
    'game.filter': 'Filter',
    'game.hand': 'Your hand',
    'game.players': 'Players',
    'game.events': 'Events',
    'game.invitations': 'Invitations',
    'game.startGame': 'Start the game',
    'game.copyLink': 'Copy link',
    'game.preview': 'Preview: {label}',
    'game.unavailable': 'Unavailable here ({n})',
    'replay.title': 'Replay',
    'replay.decisions': 'Decisions',
    'replay.controls': 'Replay controls',
    'replay.first': 'First decision',
    'replay.previous': 'Previous decision',
    'replay.next': 'Next decision',
    'replay.last': 'Last decision',
    'replay.play': 'Play',
    'replay.playButton': 'Play ▶',
    'replay.pauseButton': 'Pause ⏸',
    'replay.version': 'Version',
    'replay.versionOf': 'Version {n} of {total}',
    'replay.keys': 'Keys: ← and → step, Home and End jump.',
    'replay.start': 'The start',
    'replay.players': 'Players',
    'era.canal': 'Canal era',
    'era.rail': 'Rail era',
    'era.n': 'Era {n}',
    'game.eraRound': '{era}, round {round}',
    'table.seat': 'Seat',
    'table.money': 'Money',
    'table.income': 'Income',
    'table.vp': 'VP',
    'table.clock': 'Clock',
    'game.copied': 'Copied',
    'game.selectCopy': 'Select and copy the link',
    'game.noToken': 'This browser holds no token for seat {n} of this game: watching as a spectator.',
    'game.reconnected': 'Reconnected',
    'game.lostDetail': 'Connection lost: {detail}; reconnecting',
    'game.lost': 'Connection lost; reconnecting',
    'game.played': 'Played: {label}',
    'game.undone': 'Undone',
    'game.deck': 'Deck {n}',
    'game.live': 'Live',
    'game.reconnecting': 'Reconnecting…',
    'game.noBoard': 'This ruleset has no board drawing yet: the lists beside it play the game.',
    'game.loading': 'Loading…',
    'game.notStarted': 'The game has not started.',
    'game.resignedBot': 'You resigned: a bot ({bot}) plays your seat.',
    'game.resigned': 'You resigned.',
    'game.startsWhen': 'The game starts when every seat is taken and the host starts it.',
    'game.waitingFor': 'Waiting for {name}…',
    'game.loadingOptions': 'Loading your options…',
    'game.optionsLabel': 'Options of this decision',
    'game.workingCost': 'Working out the cost…',
    'game.rematchStarted': 'The rematch has started',
    'game.rematchProposed': 'Rematch proposed',
    'game.youResigned': 'You resigned',
    'game.yourLinkTiles': 'Your link tiles',
    'game.yourMatLeft': 'Your mat: tiles left',
    'game.yourMat': 'Your mat',
    'game.matsHeading': 'Player mats: next tile (tiles left)',
    'game.spectators': 'Spectators: ',
    'game.started': 'The game has started',
    'game.seatBot': 'Seat a bot',
    'game.botFor': 'Bot for seat {n}',
    'game.botPlays': 'A bot plays seat {n}',
    'game.inviteFor': 'Invite link for seat {n}',
    'game.joinFor': 'Join link for seat {n}',
    'game.open': 'open',
    'game.titleTurn': 'Brass — your turn',
    'game.titleGame': 'Brass — game',
    'table.spent': 'Spent',
    'table.cards': 'Cards',
    'table.links': 'Links',
    'table.industry': 'Industry',
    'table.nextTile': 'Next tile',
    'table.cost': 'Cost',
    'table.linkVp': 'Link VP',
    'table.eras': 'Eras',
    'game.endedEarly': 'The game ended early ({reason}): it is not scored.',
    'game.whiskey': 'Whiskey: {n}.',
    'game.deciding': '{name} is deciding: {what}.',
    'name.slot': '{place} slot {n}',
    'name.merchant': '{place} merchant {n}',
    'name.card': '{card} card',
    'name.market': 'the market',
    'name.done': 'Done',
  },
  'zh-Hans': {
    'site.tagline': '工业革命：伯明翰与匹兹堡，在引擎服务上对弈',
    'site.skip': '跳到正文',
    'site.language': '语言',
    'error.title': '出错了',
    'error.back': '返回大厅',
    'lobby.create': '创建对局',
    'lobby.yours': '我的对局',
    'lobby.openLink': '打开链接',
    'lobby.public': '公开对局',
    'lobby.ruleset': '规则集',
    'lobby.players': '玩家人数',
    'lobby.playersN': '{n} 名玩家',
    'lobby.seats': '座位',
    'lobby.seatN': '座位 {n}',
    'lobby.seatWho': '座位 {n}：由谁来玩',
    'lobby.seatName': '座位 {n}：名字',
    'lobby.options': '选项',
    'lobby.visibility': '可见性',
    'lobby.public.option': '公开（在大厅列出）',
    'lobby.unlisted.option': '不公开（仅凭链接）',
    'lobby.seed': '发牌种子（可选）',
    'lobby.seedPlaceholder': '随机',
    'lobby.createButton': '创建对局',
    'lobby.created': '对局已创建',
    'lobby.roleMe': '我（在此浏览器中玩）',
    'lobby.roleInvite': '邀请链接（一位玩家）',
    'lobby.roleOpen': '空座位（任何人可加入）',
    'lobby.bot': '机器人：{name}',
    'lobby.provisional': '暂定数据：{list}。',
    'lobby.clockAndLeaving': '计时与离开',
    'lobby.clock': '计时',
    'lobby.noClock': '不计时',
    'lobby.fischer': '每局总时间，每回合另加时间',
    'lobby.perTurn': '每回合固定时间',
    'lobby.minutes': '每位玩家的分钟数',
    'lobby.increment': '每回合增加的秒数',
    'lobby.turnSeconds': '每回合秒数',
    'lobby.onTimeout': '超时后',
    'lobby.onResign': '玩家认输后',
    'lobby.join': '加入',
    'lobby.watch': '观战',
    'lobby.replay': '回放',
    'lobby.open': '打开',
    'lobby.playSeat': '以座位 {n} 游玩',
    'lobby.refresh': '刷新',
    'lobby.openOnly': ' 只看有空座位的对局',
    'lobby.noPublic': '还没有公开对局。',
    'lobby.noneYet': '还没有：创建一局，或打开一个邀请链接。',
    'lobby.linkOrId': '链接或对局编号',
    'lobby.linkPlaceholder': '邀请链接或对局编号',
    'join.title': '加入对局',
    'join.yourName': '你的名字',
    'join.loading': '正在载入对局…',
    'game.lobby': '大厅',
    'game.gameN': '对局 {id}',
    'game.waitingPlayers': '等待玩家加入',
    'game.over': '游戏结束',
    'game.yourTurn': '轮到你了',
    'game.toPlay': '轮到 {name}',
    'game.spectating': '观战中',
    'game.you': '你：{name}',
    'game.yourMove': '你的行动',
    'game.finalScores': '最终得分',
    'game.watchReplay': '观看回放',
    'game.confirm': '确认',
    'game.cancel': '取消',
    'game.undo': '撤销',
    'game.resign': '认输',
    'game.resignAsk': '认输…',
    'game.resignQuestion': '确定认输吗？',
    'game.keepPlaying': '继续游戏',
    'game.rematch': '再来一局',
    'game.rematchAccept': '接受再来一局（{name} 提议）',
    'game.rematchWaiting': '已提议再来一局：等待其他玩家。',
    'game.rematchCheck': '再看一次',
    'game.rematchPlay': '开始再来一局',
    'game.spectatorDelayOne': '对局结束前，观众看到的对局落后 1 个完整回合。',
    'game.spectatorDelay': '对局结束前，观众看到的对局落后 {n} 个完整回合。',
    'game.wholeActions': '完整行动',
    'game.filter': '筛选',
    'game.hand': '你的手牌',
    'game.players': '玩家',
    'game.events': '事件',
    'game.invitations': '邀请',
    'game.startGame': '开始游戏',
    'game.copyLink': '复制链接',
    'game.preview': '预览：{label}',
    'game.unavailable': '此处不可用（{n}）',
    'replay.title': '回放',
    'replay.decisions': '决策',
    'replay.controls': '回放控制',
    'replay.first': '第一个决策',
    'replay.previous': '上一个决策',
    'replay.next': '下一个决策',
    'replay.last': '最后一个决策',
    'replay.play': '播放',
    'replay.playButton': '播放 ▶',
    'replay.pauseButton': '暂停 ⏸',
    'replay.version': '版本',
    'replay.versionOf': '版本 {n} / {total}',
    'replay.keys': '按键：← 和 → 逐步，Home 和 End 跳到首尾。',
    'replay.start': '开局',
    'replay.players': '玩家',
    'era.canal': '运河时代',
    'era.rail': '铁路时代',
    'era.n': '第 {n} 时代',
    'game.eraRound': '{era}，第 {round} 轮',
    'table.seat': '座位',
    'table.money': '金钱',
    'table.income': '收入',
    'table.vp': '分数',
    'table.clock': '时钟',
    'game.copied': '已复制',
    'game.selectCopy': '请选中并复制链接',
    'game.noToken': '此浏览器没有本局座位 {n} 的令牌：以观众身份观看。',
    'game.reconnected': '已重新连接',
    'game.lostDetail': '连接中断：{detail}；正在重新连接',
    'game.lost': '连接中断；正在重新连接',
    'game.played': '已执行：{label}',
    'game.undone': '已撤销',
    'game.deck': '牌堆 {n}',
    'game.live': '实时',
    'game.reconnecting': '正在重新连接…',
    'game.noBoard': '此规则集还没有版图绘制：请用旁边的列表进行游戏。',
    'game.loading': '载入中…',
    'game.notStarted': '对局尚未开始。',
    'game.resignedBot': '你已认输：机器人（{bot}）接替你的座位。',
    'game.resigned': '你已认输。',
    'game.startsWhen': '所有座位坐满并由房主开始后，游戏开始。',
    'game.waitingFor': '等待 {name}…',
    'game.loadingOptions': '正在载入你的选项…',
    'game.optionsLabel': '本次决策的选项',
    'game.workingCost': '正在计算费用…',
    'game.rematchStarted': '再来一局已经开始',
    'game.rematchProposed': '已提议再来一局',
    'game.youResigned': '你已认输',
    'game.yourLinkTiles': '你的连接板块',
    'game.yourMatLeft': '你的玩家板：剩余板块',
    'game.yourMat': '你的玩家板',
    'game.matsHeading': '玩家板：下一个板块（剩余数量）',
    'game.spectators': '观众：',
    'game.started': '游戏已经开始',
    'game.seatBot': '安排机器人',
    'game.botFor': '座位 {n} 的机器人',
    'game.botPlays': '机器人接替座位 {n}',
    'game.inviteFor': '座位 {n} 的邀请链接',
    'game.joinFor': '座位 {n} 的加入链接',
    'game.open': '空',
    'game.titleTurn': 'Brass — 轮到你了',
    'game.titleGame': 'Brass — 对局',
    'table.spent': '本轮花费',
    'table.cards': '手牌',
    'table.links': '连接',
    'table.industry': '产业',
    'table.nextTile': '下一个板块',
    'table.cost': '费用',
    'table.linkVp': '连接分',
    'table.eras': '时代',
    'game.endedEarly': '对局提前结束（{reason}）：不计分。',
    'game.whiskey': '威士忌：{n}。',
    'game.deciding': '{name} 正在决策：{what}。',
    'name.slot': '{place} 位置 {n}',
    'name.merchant': '{place} 商人 {n}',
    'name.card': '{card}牌',
    'name.market': '市场',
    'name.done': '完成',
  },
};

const KEY = 'brass.language';

// A language tag as one of ours: zh, zh-CN, zh-Hans, zh-SG are Simplified Chinese.
export function languageOf(tag) {
  const t = String(tag || '').toLowerCase().replace('_', '-');
  if (['zh', 'zh-cn', 'zh-hans', 'zh-sg'].includes(t) || t.startsWith('zh-hans-')) return 'zh-Hans';
  if (t === 'en' || t.startsWith('en-')) return 'en';
  return null;
}

function initial() {
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch { stored = null; }
  if (stored && CATALOGUE[stored]) return stored;
  const tags = (navigator.languages && navigator.languages.length) ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const found = languageOf(tag);
    if (found) return found;
  }
  return 'en';
}

let current = initial();

export function language() {
  return current;
}

export function setLanguage(lang) {
  if (!CATALOGUE[lang]) return;
  current = lang;
  try { localStorage.setItem(KEY, lang); } catch { /* private mode: this page only */ }
  document.documentElement.lang = lang;
}

// The text of `key` in the current language, its {placeholders} filled from `params`.
export function t(key, params = {}) {
  const text = CATALOGUE[current][key] ?? CATALOGUE.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// "Canal era, round 3" (Birmingham names its eras, Pittsburgh numbers them).
export function eraRound(era, round) {
  const name = typeof era === 'number' ? t('era.n', { n: era })
    : t(`era.${era}`) === `era.${era}` ? `${era} era` : t(`era.${era}`);
  return t('game.eraRound', { era: name, round });
}

// GetRuleset's labels of the game on screen ({language: {table: {name: label}}}): the
// engine's names in the page's language. English keeps the page's own wording.
let labels = null;

export function useLabels(all) {
  labels = all || null;
}

export function label(table, name) {
  if (current === 'en' || !labels) return null;
  return (labels[current] && labels[current][table] && labels[current][table][name]) || null;
}

// An option's name ("slot:belper.0", "card:derby") in the ruleset's labels, or null.
export function localName(kind, rest) {
  if (current === 'en' || !labels) return null;
  const place = (loc) => label('locations', loc) || loc;
  const [loc, k] = rest.split('.');
  switch (kind) {
    case 'type': return label('actionTypes', rest);
    case 'card': return label('cards', rest) && t('name.card', { card: label('cards', rest) });
    case 'industry': return label('industries', rest);
    case 'slot': return t('name.slot', { place: place(loc), n: Number(k) + 1 });
    case 'merchant': return t('name.merchant', { place: place(loc), n: Number(k) + 1 });
    case 'link': return rest.split('--').map(place).join(' – ');
    case 'market': return t('name.market');
    case 'done': return t('name.done');
    default: return null;
  }
}
