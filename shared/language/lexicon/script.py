"""The one definition of the CJK ideograph range every text rule shares.

CJK Unified Ideographs Extension A (U+3400-U+4DBF), the Unified Ideographs block
(U+4E00-U+9FFF) and the Compatibility Ideographs (U+F900-U+FAFF): a rare character from
Extension A must split clauses and count as Chinese like any common one.
"""

from __future__ import annotations

import re

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_CHAR = f"[{CJK}]"
CJK_RE = re.compile(CJK_CHAR)
CJK_RUN_RE = re.compile(CJK_CHAR + "+")


# Traditional characters and their simplified forms, one to one (characters that are also
# simplified, or map to several, are left out): the Chinese lexicon is written in
# simplified characters, and "遵循奧卡姆剃刀原則" is the same rule as "遵循奥卡姆剃刀原则".
_TRADITIONAL = (
    "並亂來係個們偵備傳僅價億儘優儲內兩別則創劃劇劉劑勁動務勞勢勵匯區協卻參員問啟單嗎嘗嚴圍園圓圖團執報塊墊壇壓壞壯夠奧嬰學實"
    "審寫寬寶將專尋對導屆層屬師帳帶幫庫廁廢廣廳張強彈後徑從復徵惡愛態慣慮憂憑憶應懶懷懸戰戲戶掃換撥撲擁擇擊擋擔據擠擬擴擾攜攝"
    "攤敗敵數斬斷於時暢暫曆曉書會東條棄業極構槍樂樓標樞樣樹機橫檔檢權歎歐歡歲歷歸殘殺殼氣決沒況洩淨測湧準溫滅滯滾滿潔潛潤濃濕"
    "濟濾瀏瀾灑災為無煩熱燈燒爐爛爭爾牽狀狹獄獎獨獲現瑣瑩瑪環產畢畫異當疊療癢發盜盡監盤盧碩確碼礎礙礦祕禍禮稅種稱積穩窩窮竊競"
    "筆筍節範築簡簽籤糧糾紀約紅紋納紐純紙級紛細紹終組結絕絡給統絲綁經綜綠維綱網緊緒線緝緣編緩緯練緻縣縫縮總績織繩繪繫繳繼續纏"
    "纖罰罷羅義習聖聞聯聲聳職聽肅脅脫腦腫腳膚膽臉臟臨與興舉舊艙艦艱莊華萬葉蒼蓋蔥薦薩藍藝藥蘆蘋蘭處虛號虧蟲蠟術衛衝裏補裝裡製"
    "複襯襲見規覓視親覺覽觀觸訂計訊討訓託記訣訪設許訴註詐評詞詠詢試詩話該詳誇誌認誕誘語誠誡誤說誰課調談請諒論諮諷諾謂謊謎講謝"
    "謹證識譜譯議譴護譽讀變讓讚豎豐貓負財貢貧貨販貫責貴買貸費貼貿賀資賊賓賞賣賤賦質賬賴賺購賽贈贊贏趕趙趨跡踐蹟蹤躍車軋軌軍軟"
    "軸較載輔輕輝輩輪輯輸輾轄轉轟辦辭辯農這連週進運過達違遙遜遞遠適遲遷選遺還邊邏郵鄰醜醞醫釀釋釘針釣鈍鈕鈴鉛鉤銀銅銳銷鋒鋪鋼"
    "錄錘錢錦錯錶鍋鍛鍵鎊鎖鎮鏈鏡鐘鐵鑰長門閃閉開閒間閣閥閱闊闖關陣陳陸陽隊階隕際隨險隱隸雖雙雜雞離難雲電靈靜韌韓響頁頂項順須"
    "預頑頒頗領頭頰頸頻顆題額顏願顛類顧顯風飄飛飯飼飽餅餓餘館餵駁駐騎騙騰驅驕驗驚驟髒體鬆鬥鬧鬱魚魯鮮鳥鴨鵝鷹鹽麗麥麼黃點黨齊"
    "齒齡龍龜"
)
_SIMPLIFIED = (
    "并乱来系个们侦备传仅价亿尽优储内两别则创划剧刘剂劲动务劳势励汇区协却参员问启单吗尝严围园圆图团执报块垫坛压坏壮够奥婴学实"
    "审写宽宝将专寻对导届层属师账带帮库厕废广厅张强弹后径从复征恶爱态惯虑忧凭忆应懒怀悬战戏户扫换拨扑拥择击挡担据挤拟扩扰携摄"
    "摊败敌数斩断于时畅暂历晓书会东条弃业极构枪乐楼标枢样树机横档检权叹欧欢岁历归残杀壳气决没况泄净测涌准温灭滞滚满洁潜润浓湿"
    "济滤浏澜洒灾为无烦热灯烧炉烂争尔牵状狭狱奖独获现琐莹玛环产毕画异当叠疗痒发盗尽监盘卢硕确码础碍矿秘祸礼税种称积稳窝穷窃竞"
    "笔笋节范筑简签签粮纠纪约红纹纳纽纯纸级纷细绍终组结绝络给统丝绑经综绿维纲网紧绪线缉缘编缓纬练致县缝缩总绩织绳绘系缴继续缠"
    "纤罚罢罗义习圣闻联声耸职听肃胁脱脑肿脚肤胆脸脏临与兴举旧舱舰艰庄华万叶苍盖葱荐萨蓝艺药芦苹兰处虚号亏虫蜡术卫冲里补装里制"
    "复衬袭见规觅视亲觉览观触订计讯讨训托记诀访设许诉注诈评词咏询试诗话该详夸志认诞诱语诚诫误说谁课调谈请谅论咨讽诺谓谎谜讲谢"
    "谨证识谱译议谴护誉读变让赞竖丰猫负财贡贫货贩贯责贵买贷费贴贸贺资贼宾赏卖贱赋质账赖赚购赛赠赞赢赶赵趋迹践迹踪跃车轧轨军软"
    "轴较载辅轻辉辈轮辑输辗辖转轰办辞辩农这连周进运过达违遥逊递远适迟迁选遗还边逻邮邻丑酝医酿释钉针钓钝钮铃铅钩银铜锐销锋铺钢"
    "录锤钱锦错表锅锻键镑锁镇链镜钟铁钥长门闪闭开闲间阁阀阅阔闯关阵陈陆阳队阶陨际随险隐隶虽双杂鸡离难云电灵静韧韩响页顶项顺须"
    "预顽颁颇领头颊颈频颗题额颜愿颠类顾显风飘飞饭饲饱饼饿余馆喂驳驻骑骗腾驱骄验惊骤脏体松斗闹郁鱼鲁鲜鸟鸭鹅鹰盐丽麦么黄点党齐"
    "齿龄龙龟"
)
_TO_SIMPLIFIED = str.maketrans(_TRADITIONAL, _SIMPLIFIED)


def simplified(text: str) -> str:
    """``text`` with traditional characters written in their simplified form (same length)."""
    return text.translate(_TO_SIMPLIFIED)
