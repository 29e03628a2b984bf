"""Everyday vocabulary for the full ko-en grammar: the word lists, as plain text, parsed by lexicon.py.

Formats (one entry a line; English words of a multi-word expression are joined with "_"):

* nouns:       KOREAN ENGLISH [IRREGULAR_PLURAL] [+tag ...] [!]   ("!" mass noun: no a/an, no numbers;
               "%" plural only: pants, scissors; "+proper" a place name without "the")
* verbs:       STEM KIND ENGLISH ENGLISH_PAST SUBJECT_TAGS OBJECT_TAGS [irr=ㅂ|ㄷ|르|ㅎ|ㅅ] [split]
               KIND: t transitive, i intransitive, m motion (to a place); tags comma-separated, "-" none;
               "split": a noun + 하다 verb whose negation goes between (공부 안 해요)
* adjectives:  STEM ENGLISH APPLIES_TO_TAGS [irr=...]
* adverbs:     KOREAN ENGLISH

Korean conjugation is computed (hangul.py) from the stem and its irregular class; English pasts
and plurals that are not regular are written out.
"""

PEOPLE = """
엄마 mom
아빠 dad
어머니 mother
아버지 father
형 older_brother
오빠 older_brother
누나 older_sister
언니 older_sister
동생 younger_sibling
남동생 younger_brother
여동생 younger_sister
고모 aunt
사촌 cousin
아들 son
딸 daughter
남편 husband
아내 wife
가족 family families
손자 grandson
손녀 granddaughter
조카 nephew
부모님 parents %
사람 person people
어른 adult
청소년 teenager
아저씨 gentleman gentlemen
아줌마 lady ladies
반장 class_president
선배 senior
후배 junior
사장님 boss bosses
직원 employee
점원 clerk
주인 owner
팬 fan
관광객 tourist
승객 passenger
환자 patient
선수 player
코치 coach coaches
감독 director
대통령 president
교수 professor
교장 principal
룸메이트 roommate
남자친구 boyfriend
여자친구 girlfriend
기자 reporter
변호사 lawyer
회사원 office_worker
공무원 civil_servant
운전사 driver
비서 secretary secretaries
미용사 hairdresser
제빵사 baker
우체부 mail_carrier
정원사 gardener
목수 carpenter
어부 fisherman fishermen
조종사 pilot
승무원 flight_attendant
사진작가 photographer
음악가 musician
피아니스트 pianist
디자이너 designer
프로그래머 programmer
수의사 vet
치과의사 dentist
약사 pharmacist
판사 judge
경비원 guard
가이드 guide
모델 model
유튜버 YouTuber
댄서 dancer
운동선수 athlete
학자 scholar
시인 poet
탐정 detective
마술사 magician
광대 clown
우주비행사 astronaut
천사 angel
마녀 witch witches
요정 fairy fairies
해적 pirate
"""

ANIMALS = """
햄스터 hamster
앵무새 parrot +bird
거위 goose geese +bird
비둘기 pigeon +bird
참새 sparrow +bird
까마귀 crow +bird
나비 butterfly
벌 bee
모기 mosquito mosquitoes
거미 spider
달팽이 snail
고래 whale
상어 shark
돌고래 dolphin
게 crab
새우 shrimp shrimp
오징어 squid squid
사슴 deer deer
코알라 koala
캥거루 kangaroo
얼룩말 zebra
표범 leopard
치타 cheetah
악어 crocodile
공룡 dinosaur
용 dragon
병아리 chick +bird
송아지 calf calves
고슴도치 hedgehog
두더지 mole
박쥐 bat
수달 otter
물개 seal
너구리 raccoon
나무늘보 sloth
고릴라 gorilla
침팬지 chimpanzee
라마 llama
꿀벌 honeybee
잠자리 dragonfly dragonflies
무당벌레 ladybug
백조 swan +bird
홍학 flamingo +bird
공작 peacock +bird
갈매기 seagull +bird
해파리 jellyfish jellyfish
불가사리 starfish starfish
금붕어 goldfish goldfish
도마뱀 lizard
올챙이 tadpole
벌레 bug
애벌레 caterpillar
"""

FOODS = """
배 pear
귤 tangerine
감 persimmon
키위 kiwi
체리 cherry
블루베리 blueberry
파인애플 pineapple
자두 plum
멜론 melon
코코넛 coconut
아보카도 avocado
라임 lime
오이 cucumber
배추 cabbage
양배추 head_of_cabbage heads_of_cabbage
버섯 mushroom
고추 chili_pepper
콩 bean
호박 pumpkin
무 radish
고구마 sweet_potato sweet_potatoes
샐러드 salad
스테이크 steak
핫도그 hot_dog
팬케이크 pancake +baked
와플 waffle +baked
머핀 muffin +baked
베이글 bagel +baked
사탕 candy candies
아이스크림 ice_cream
과자 snack
소시지 sausage
주먹밥 rice_ball
도시락 lunch_box lunch_boxes
디저트 dessert
호떡 sweet_pancake
어묵 fish_cake
타코 taco
땅콩 peanut
호두 walnut
아몬드 almond
떡 rice_cake
빵조각 piece_of_bread pieces_of_bread
김밥 gimbap !
김치 kimchi !
라면 ramen !
비빔밥 bibimbap !
불고기 bulgogi !
떡볶이 tteokbokki !
스파게티 spaghetti !
치킨 fried_chicken !
토스트 toast !
초콜릿 chocolate !
팝콘 popcorn !
치즈 cheese !
버터 butter !
잼 jam !
꿀 honey !
소금 salt !
설탕 sugar !
후추 black_pepper !
고기 meat !
소고기 beef !
돼지고기 pork !
닭고기 chicken_meat !
햄 ham !
베이컨 bacon !
두부 tofu !
죽 porridge !
카레 curry !
찌개 stew !
김치찌개 kimchi_stew !
볶음밥 fried_rice !
시리얼 cereal !
요거트 yogurt !
삼겹살 pork_belly !
갈비 galbi !
냉면 cold_noodles !
짜장면 jajangmyeon !
초밥 sushi !
우동 udon !
케첩 ketchup !
마요네즈 mayonnaise !
간장 soy_sauce !
식초 vinegar !
기름 oil !
밀가루 flour !
쌀 rice !
시금치 spinach !
상추 lettuce !
마늘 garlic !
옥수수 corn !
브로콜리 broccoli !
생강 ginger !
국 soup !
국수 noodles %
감자튀김 fries %
젤리 jelly !
계란 egg
"""

DRINKS = """
차 tea
녹차 green_tea
홍차 black_tea
사이다 soda
탄산수 sparkling_water
두유 soy_milk
식혜 sikhye
스무디 smoothie
라떼 latte
핫초코 hot_chocolate
아이스티 iced_tea
보리차 barley_tea
생수 bottled_water
에이드 ade
"""

OBJECTS = """
텔레비전 TV +electric
소파 sofa
침대 bed
책상 desk
탁자 table
식탁 dining_table
옷장 closet +openable
서랍 drawer +openable
선반 shelf shelves
커튼 curtain +openable
카펫 carpet +cleanable
이불 quilt
수건 towel
비누 soap !
샴푸 shampoo !
칫솔 toothbrush
치약 toothpaste !
빗 comb
휴지 tissue
쓰레기통 trash_can +cleanable
쓰레기 trash !
청소기 vacuum_cleaner +electric
세탁기 washing_machine +electric
전자레인지 microwave +electric
오븐 oven +electric +openable
냄비 pot +cleanable
프라이팬 frying_pan +cleanable
주전자 kettle
그릇 bowl +breakable +cleanable
젓가락 chopsticks %
머그컵 mug +breakable
물병 water_bottle
빨대 straw
냅킨 napkin
쟁반 tray
화분 flowerpot +breakable
꽃병 vase +breakable
액자 frame +breakable
달력 calendar
전등 light +electric
선풍기 electric_fan +electric
에어컨 air_conditioner +electric
히터 heater +electric
라디오 radio +electric
스피커 speaker +electric
리모컨 remote_control
충전기 charger
배터리 battery batteries
전구 light_bulb +breakable
양초 candle
성냥 match matches
라이터 lighter
테이프 tape !
지우개 eraser
필통 pencil_case
스테이플러 stapler
클립 paper_clip
봉투 envelope
우표 stamp
엽서 postcard +sendable
카드 card +sendable
소포 package +sendable +openable
풍선 balloon +toy
퍼즐 puzzle +toy
블록 block +toy
로봇 robot +toy
곰인형 teddy_bear +toy
보드게임 board_game +toy
게임기 game_console +electric
스마트폰 smartphone +electric
휴대폰 cell_phone +electric
태블릿 tablet +electric
키보드 keyboard
마우스 computer_mouse
모니터 monitor +electric
프린터 printer +electric
이어폰 earphone
지갑 wallet
돈 money !
동전 coin
티켓 ticket
여권 passport
자물쇠 lock
사다리 ladder
밧줄 rope
양동이 bucket
삽 shovel
빗자루 broom
걸레 mop
바퀴 wheel
타이어 tire
헬멧 helmet
배낭 backpack
여행가방 suitcase +openable
텐트 tent
손전등 flashlight +electric
깃발 flag
북 drum +instrument
피아노 piano +instrument
기타 guitar +instrument
바이올린 violin +instrument
플루트 flute +instrument
트럼펫 trumpet +instrument
하모니카 harmonica +instrument
실로폰 xylophone +instrument
첼로 cello +instrument
마이크 microphone
가위 scissors %
안경 glasses %
선글라스 sunglasses %
헤드폰 headphones %
교과서 textbook
숙제 homework !
칠판 blackboard +cleanable
분필 chalk !
색연필 colored_pencil +tool
사전 dictionary dictionaries
성적표 report_card
책가방 school_bag +openable
사물함 locker +openable
메모 note +sendable
메시지 message +sendable
이메일 email +sendable
문자 text_message +sendable
초대장 invitation +sendable
케이크상자 cake_box cake_boxes +openable
종이 paper !
가구 furniture !
"""

BOOKS = """
그림책 picture_book
만화책 comic_book
동화책 storybook
일기 diary diaries
시집 poetry_book
요리책 cookbook
교재 workbook
"""

CLOTHES = """
바지 pants %
청바지 jeans %
반바지 shorts %
잠옷 pajamas %
블라우스 blouse
조끼 vest
후드티 hoodie
양말 sock
신발 shoe
운동화 sneaker
구두 dress_shoe
부츠 boot
샌들 sandal
슬리퍼 slipper
장갑 glove
목도리 scarf scarves
넥타이 tie
벨트 belt
수영복 swimsuit
비옷 raincoat
패딩 padded_jacket
한복 hanbok
정장 suit
반지 ring
목걸이 necklace
귀걸이 earring
팔찌 bracelet
머리띠 headband
앞치마 apron
마스크 mask
"""

VEHICLES = """
비행기 airplane +rideable
지하철 subway +rideable
헬리콥터 helicopter +rideable
구급차 ambulance +rideable
소방차 fire_truck +rideable
경찰차 police_car +rideable
스쿠터 scooter +rideable
유모차 stroller
로켓 rocket +rideable
잠수함 submarine +rideable
요트 yacht +rideable
카트 cart +rideable
트랙터 tractor +rideable
고속버스 express_bus express_buses +rideable
스케이트보드 skateboard +rideable
썰매 sled +rideable
"""

PLANTS = """
풀 grass !
잎 leaf leaves
선인장 cactus cacti
소나무 pine_tree
벚꽃 cherry_blossom
국화 chrysanthemum
백합 lily lilies
민들레 dandelion
잔디 lawn
이끼 moss !
나뭇가지 branch
"""

SUBJECTS = """
체육 PE !
사회 social_studies !
지리 geography !
물리 physics !
화학 chemistry !
생물 biology !
코딩 coding !
프로그래밍 programming !
중국어 Chinese !
일본어 Japanese !
스페인어 Spanish !
프랑스어 French !
독일어 German !
경제 economics !
철학 philosophy !
국어 Korean_literature !
문학 literature !
"""

SPORTS = """
축구 soccer !
야구 baseball !
농구 basketball !
배구 volleyball !
테니스 tennis !
탁구 table_tennis !
배드민턴 badminton !
골프 golf !
태권도 taekwondo !
스키 skiing !
스케이트 skating !
요가 yoga !
볼링 bowling !
체스 chess !
바둑 baduk !
게임 games !
"""

HOBBIES = """
수영 swimming !
등산 hiking !
낚시 fishing !
캠핑 camping !
쇼핑 shopping !
독서 reading !
춤 dancing !
"""

PLACES = """
회사 office
우체국 post_office
경찰서 police_station
소방서 fire_station
약국 pharmacy pharmacies
빵집 bakery bakeries
꽃집 flower_shop
편의점 convenience_store
슈퍼마켓 supermarket
백화점 department_store
문구점 stationery_store
미용실 hair_salon
세탁소 laundromat
주유소 gas_station
정류장 bus_stop
지하철역 subway_station
항구 port
놀이터 playground
놀이공원 amusement_park
운동장 field
체육관 gym
경기장 stadium
극장 theater
미술관 gallery galleries
궁전 palace
성 castle
탑 tower
다리 bridge
거리 street
골목 alley
광장 square
시골 countryside
도시 city cities
마을 village
동네 neighborhood
섬 island
호수 lake
연못 pond
폭포 waterfall
언덕 hill
계곡 valley
사막 desert
동굴 cave
정글 jungle
캠퍼스 campus campuses
유치원 kindergarten
초등학교 elementary_school
중학교 middle_school
고등학교 high_school
학원 academy academies
기숙사 dormitory dormitories
거실 living_room
침실 bedroom
화장실 bathroom
마당 yard
옥상 rooftop
지하실 basement
강당 auditorium
커피숍 coffee_shop
노래방 karaoke_room
수족관 aquarium
식물원 botanical_garden
치과 dental_clinic
대사관 embassy embassies
시청 city_hall
공장 factory factories
터미널 terminal
교실 classroom
집 home
서울 Seoul +proper
부산 Busan +proper
제주도 Jeju_Island +proper
한국 Korea +proper
미국 America +proper
일본 Japan +proper
중국 China +proper
영국 England +proper
프랑스 France +proper
독일 Germany +proper
캐나다 Canada +proper
호주 Australia +proper
인천 Incheon +proper
대구 Daegu +proper
런던 London +proper
파리 Paris +proper
뉴욕 New_York +proper
도쿄 Tokyo +proper
"""

NATURE = """
태양 sun
별 star
구름 cloud
무지개 rainbow
번개 lightning !
천둥 thunder !
안개 fog !
돌 stone
바위 rock
모래 sand !
흙 soil !
불 fire !
얼음 ice !
파도 wave
우주 space !
행성 planet
"""

WEATHER = """
날씨 weather !
"""

WEATHER_THINGS = """
비 rain !
눈 snow !
바람 wind !
햇빛 sunlight !
공기 air !
"""

BODY = """
손 hand
발 foot feet
머리 head
얼굴 face
코 nose
귀 ear
어깨 shoulder
무릎 knee
등 back
목 neck
손가락 finger
발가락 toe
머리카락 hair !
이빨 tooth teeth
혀 tongue
입술 lip
눈썹 eyebrow
피부 skin !
"""

EVENTS = """
생일 birthday
파티 party parties
휴가 vacation
방학 school_break
여행 trip
축제 festival
콘서트 concert
결혼식 wedding
수업 class classes
회의 meeting
시험 exam
경기 match matches
소풍 picnic
"""

SHOWS = """
영화 movie
드라마 drama
만화 cartoon
뮤지컬 musical
뉴스 news !
다큐멘터리 documentary documentaries
광고 ad
동영상 video
"""

IDEAS = """
꿈 dream
계획 plan
이름 name
번호 number
주소 address
비밀 secret
약속 promise
규칙 rule
문제 problem
질문 question
답 answer
"""

EXTRA_NAMES = """
지수 Jisu
민지 Minji
현우 Hyunwoo
서준 Seojun
예린 Yerin
지호 Jiho
수아 Sua
우진 Woojin
하은 Haeun
시우 Siwoo
윤서 Yunseo
건우 Gunwoo
다은 Daeun
채원 Chaewon
"""

# STEM KIND ENGLISH PAST SUBJECTS OBJECTS [irr=..] [split]
VERBS = """
주 t give gave person food,drink,object,book,clothes,toy,sendable,plant
가지 t have had person object,book,clothes,toy,vehicle
찍 t take took person photo
놓 t put put person object,book,food,drink
사랑하 t love loved person,animal person,animal,food,place,sport,subject,show,event
알 t know knew person person,place,name,number,address,secret,rule,answer,song
기억하 t remember remembered person person,place,name,number,address,promise,rule,event,song
준비하 t prepare prepared person food,drink,event,exam
주문하 t order ordered person food,drink,book,clothes
사용하 t use used person object,tool,electric,instrument
방문하 t visit visited person person,place
초대하 t invite invited person person
소개하 t introduce introduced person person,place,food,book
시작하 t start started person event,subject,sport,plan,games
끝내 t finish finished person event,subject,book,homework,food
연습하 t practice practiced person sport,instrument,song,subject
설명하 t explain explained person problem,rule,plan,answer,subject,question
켜 t turn_on turned_on person electric
신 t put_on put_on person shoe
벗 t take_off took_off person clothes,shoe,hat
연주하 t play played person instrument,song
보여주 t show showed person object,book,photo,picture,toy,clothes
칠하 t paint painted person object,place,vehicle
접 t fold folded person paper,clothes,letter,towel
채우 t fill filled person bottle,cup,bucket,bag,box
바꾸 t change changed person object,clothes,plan,name,number,rule
확인하 t check checked person object,message,email,answer,number,address,homework
충전하 t charge charged person electric
정리하 t tidy tidied person place,object,book,clothes,desk,room
응원하 t cheer_for cheered_for person person
축하하 t congratulate congratulated person person
칭찬하 t praise praised person person,animal
때리 t hit hit person,animal person,animal,ball,drum
만지 t touch touched person,animal person,animal,object,plant,toy,body
따 t pick picked person fruit,flower
줍 t pick_up picked_up person object,toy,trash,stone,leaf,coin irr=ㅂ
모으 t collect collected person object,coin,stamp,card,stone,leaf,toy
나누 t share shared person food,drink,object,toy
섞 t mix mixed person food,drink
끓이 t boil boiled person water,soup,food,drink
볶 t fry fried person food
데우 t heat_up heated_up person food,drink
구경하 t look_around looked_around person place
기다리 t wait_for waited_for person,animal person,animal,bus,vehicle
하 t play played person sport,games
하 t do did person homework
다치 t hurt hurt person,animal body
쓰다듬 t pet petted person animal
안내하 t guide guided person person
치우 t clear cleared person table,dining_table,desk,trash,food
잃 t lose lost person object,book,clothes,toy
훔치 t steal stole person,animal object,food,book,toy
"""

INTRANSITIVE_VERBS = """
일어나 i get_up got_up person,animal -
춤추 i dance danced person -
여행하 i travel traveled person - split
산책하 i take_a_walk took_a_walk person - split
쇼핑하 i go_shopping went_shopping person - split
샤워하 i take_a_shower took_a_shower person - split
세수하 i wash_up washed_up person - split
대답하 i answer answered person - split
이야기하 i talk talked person - split
말하 i speak spoke person -
생각하 i think thought person - split
걱정하 i worry worried person - split
졸업하 i graduate graduated person - split
출발하 i leave left person - split
도착하 i arrive arrived person,animal - split
결혼하 i get_married got_married person - split
싸우 i fight fought person,animal -
설거지하 i do_the_dishes did_the_dishes person - split
숙제하 i do_homework did_homework person - split
청소하 i clean cleaned person - split
캠핑하 i go_camping went_camping person - split
낚시하 i go_fishing went_fishing person - split
등산하 i go_hiking went_hiking person - split
기도하 i pray prayed person - split
떨어지 i fall fell person,animal -
넘어지 i fall_down fell_down person,animal -
잠들 i fall_asleep fell_asleep person,animal -
깨 i wake_up woke_up person,animal -
서두르 i hurry hurried person,animal - irr=르
달리 i run ran person,animal -
숨 i hide hid person,animal -
노크하 i knock knocked person - split
전화하 i call called person - split
운동하 i work_out worked_out person - split
숨쉬 i breathe breathed person,animal -
"""

MOTION_VERBS = """
돌아오 m come_back came_back person,animal
이사하 m move moved person split
여행하 m travel traveled person split
뛰어오 m come_running came_running person,animal
이사가 m move_away moved_away person
"""

# STEM ENGLISH APPLIES_TO [irr=..]
ADJECTIVES = """
좋 good person,animal,food,drink,object,book,clothes,place,weather,event,show,idea,sport
나쁘 bad person,animal,food,drink,object,book,place,weather,event,show,idea
덥 hot place,weather irr=ㅂ
춥 cold place,weather irr=ㅂ
따뜻하 warm place,weather,food,drink,clothes,person
시원하 cool place,weather,drink
맑 clear weather,drink
흐리 cloudy weather
바쁘 busy person,place
피곤하 tired person,animal
아프 sick person,animal
기쁘 glad person
즐겁 joyful person,event irr=ㅂ
재미없 boring book,subject,show,event,person,sport
맛없 bland food,drink
멋있 cool person,clothes,vehicle,place
착하 nice person,animal
똑똑하 clever person,animal
심심하 bored person,animal
외롭 lonely person,animal irr=ㅂ
무섭 scary animal,show,person,place irr=ㅂ
졸리 sleepy person,animal
건강하 healthy person,animal
유명하 famous person,place,food,book,show
편하 comfortable clothes,object,place,vehicle,shoe
불편하 uncomfortable clothes,object,place,vehicle,shoe
넓 wide place
좁 narrow place
깊 deep place
두껍 thick book,clothes,object irr=ㅂ
얇 thin book,clothes,object
부드럽 soft food,clothes,object,animal irr=ㅂ
딱딱하 hard food,object
날씬하 slim person,animal
뚱뚱하 fat person,animal
젊 young person
짜 salty food
맵 spicy food irr=ㅂ
싱겁 bland_tasting food irr=ㅂ
신선하 fresh food,drink,weather
배부르 full person,animal irr=르
목마르 thirsty person,animal irr=르
부지런하 diligent person,animal
게으르 lazy person,animal irr=르
활발하 lively person,animal,place
무례하 rude person
가난하 poor person
궁금하 curious person,animal
부끄럽 shy person,animal irr=ㅂ
미안하 sorry person
고맙 thankful person irr=ㅂ
중요하 important book,subject,event,idea,person
가깝 close place irr=ㅂ
멀 far place
낮 low place,plant
위험하 dangerous place,animal,vehicle,sport,object
안전하 safe place,vehicle,sport,object
복잡하 crowded place,vehicle
특별하 special person,event,food,object,place
이상하 strange person,animal,food,object,place,show,idea
훌륭하 great person,book,show,food,idea
완벽하 perfect person,food,idea,clothes
간단하 simple book,subject,idea,food
평화롭 peaceful place irr=ㅂ
멋지 wonderful person,place,event,show,clothes
편리하 convenient object,place,vehicle
귀찮 annoying person,animal,homework,idea
예의바르 polite person irr=르
조그맣 tiny animal,object,plant,food irr=ㅎ
"""

DEGREE_ADVERBS = """
아주 very
정말 really
너무 too
조금 a_little
꽤 quite
매우 extremely
"""

MANNER_ADVERBS = """
빨리 quickly
천천히 slowly
열심히 hard
잘 well
같이 together
다시 again
혼자 alone
조용히 quietly
일찍 early
늦게 late
많이 a_lot
"""

# A second batch of everyday nouns (parsed like the lists above).
MORE_PEOPLE = """
쌍둥이 twin
신랑 groom
신부 bride
장군 general
기사 knight
영웅 hero heroes
도둑 thief thieves
거인 giant
난쟁이 dwarf
농구선수 basketball_player
야구선수 baseball_player
축구선수 soccer_player
배달원 delivery_worker
택배기사 courier
외국인 foreigner
여행자 traveler
주민 resident
시장님 mayor
국왕 monarch
여왕 queen
"""

MORE_ANIMALS = """
고양이새끼 kitten
아기곰 bear_cub
오랑우탄 orangutan
코뿔소 rhino
하이에나 hyena
스컹크 skunk
족제비 weasel
비버 beaver
알파카 alpaca
메뚜기 grasshopper
전갈 scorpion
지렁이 earthworm
연어 salmon salmon
참치 tuna tuna
고등어 mackerel mackerel
조개 clam
굴 oyster
"""

MORE_FOODS = """
빵가루 breadcrumbs %
크루아상 croissant +baked
바게트 baguette +baked
케밥 kebab
부리토 burrito
나초 nacho
떡국 rice_cake_soup !
미역국 seaweed_soup !
김 seaweed !
된장 soybean_paste !
고추장 chili_paste !
참기름 sesame_oil !
쌀국수 pho !
만둣국 dumpling_soup !
갈비탕 beef_rib_soup !
삼계탕 ginseng_chicken_soup !
잡채 japchae !
순두부 soft_tofu !
오믈렛 omelet
햄샌드위치 ham_sandwich ham_sandwiches
컵케이크 cupcake +baked
마카롱 macaron +baked
푸딩 pudding !
빙수 bingsu !
솜사탕 cotton_candy !
껌 gum !
비스킷 biscuit +baked
크래커 cracker
견과류 nuts %
건포도 raisin
대추 jujube
석류 pomegranate
무화과 fig
올리브 olive
양상추 iceberg_lettuce !
피망 bell_pepper
애호박 zucchini zucchini
연근 lotus_root
도토리 acorn
"""

MORE_OBJECTS = """
바늘 needle
실 thread !
단추 button
지퍼 zipper
옷걸이 hanger
다리미 iron +electric
헤어드라이어 hair_dryer +electric
면도기 razor
로션 lotion !
향수 perfume !
립스틱 lipstick
손거울 hand_mirror +breakable
귀마개 earplug
자명종 alarm_clock
손목시계 wristwatch wristwatches
목베개 neck_pillow
돗자리 picnic_mat
부채 hand_fan
도장 seal_stamp
공구 tool_kit
못 nail
나사 screw
드라이버 screwdriver
톱 saw
도끼 ax
페인트 paint !
물감 watercolor
캔버스 canvas canvases
스케치북 sketchbook
악보 sheet_music !
공룡인형 dinosaur_toy +toy
팽이 spinning_top +toy
구슬 marble +toy
줄넘기 jump_rope +toy
훌라후프 hula_hoop +toy
야구공 baseball +toy
축구공 soccer_ball +toy
농구공 basketball +toy
배드민턴채 badminton_racket +toy
라켓 racket
스키복 ski_suit
망원경 telescope
현미경 microscope
나침반 compass compasses
지구본 globe
계산기 calculator +electric
공구함 toolbox toolboxes
"""

MORE_PLACES = """
세탁실 laundry_room
주차장 parking_lot
횡단보도 crosswalk
사거리 intersection
고속도로 highway
시내 downtown !
매표소 ticket_office
분식집 snack_bar
중국집 Chinese_restaurant
피자집 pizza_place
찜질방 sauna
목욕탕 bathhouse
스키장 ski_resort
골프장 golf_course
야구장 ballpark
축구장 soccer_field
테니스장 tennis_court
등산로 hiking_trail
바닷속 seabed
우주정거장 space_station
시골집 country_house
"""

MORE_NATURE = """
노을 sunset
일출 sunrise
화산 volcano volcanoes
지진 earthquake
태풍 typhoon
홍수 flood
눈사람 snowman snowmen
고드름 icicle
조약돌 pebble
"""

MORE_IDEAS = """
소원 wish wishes
추억 memory memories
농담 joke
수수께끼 riddle
퀴즈 quiz quizzes
일정 schedule
취미 hobby hobbies
습관 habit
"""

THIRD_BATCH_OBJECTS = """
볼펜 ballpoint_pen +tool
형광펜 highlighter +tool
샤프 mechanical_pencil +tool
연필깎이 pencil_sharpener
파일 folder
바인더 binder
포스트잇 sticky_note
도화지 drawing_paper !
색종이 colored_paper !
점토 clay !
찰흙 modeling_clay !
크레파스 oil_pastel +tool
붓통 brush_holder
물통 water_jug
보온병 thermos
도시락통 lunchbox_case
컵라면 cup_noodle
종이컵 paper_cup
행주 dishcloth
고무장갑 rubber_glove
세제 detergent !
휴지통 wastebasket
방석 cushion
베개커버 pillowcase
옷핀 safety_pin
우비 rain_poncho
장화 rain_boot
털모자 knit_hat
귀도리 earmuff
손수건 handkerchief handkerchiefs
지팡이 walking_stick
휠체어 wheelchair
구명조끼 life_jacket
튜브 swim_ring
물안경 goggles %
수영모 swim_cap
비치볼 beach_ball +toy
모래성 sandcastle
연필꽂이 pencil_holder
전화번호부 phone_book
앨범 photo_album
엘피판 record
시디 CD
디브이디 DVD
게임칩 game_cartridge
조이스틱 joystick
"""

THIRD_BATCH_FOODS = """
사과주스 apple_juice !
포도주스 grape_juice !
오렌지주스 orange_juice !
딸기우유 strawberry_milk !
바나나우유 banana_milk !
초코우유 chocolate_milk !
밀크티 milk_tea !
유자차 citron_tea !
군고구마 roasted_sweet_potato roasted_sweet_potatoes
군밤 roasted_chestnut
찐빵 steamed_bun +baked
꽈배기 twisted_doughnut +baked
붕어빵 fish_shaped_bun +baked
와플콘 waffle_cone
콘칩 corn_chip
감자칩 potato_chip
프레첼 pretzel +baked
치즈케이크 cheesecake +baked
티라미수 tiramisu !
젤라토 gelato !
셔벗 sherbet !
요구르트 yogurt_drink
계란말이 rolled_omelet
계란후라이 fried_egg
달걀찜 steamed_egg !
김치전 kimchi_pancake
파전 green_onion_pancake
오뎅 oden !
"""

THIRD_BATCH_PLACES = """
교무실 teachers_room
보건실 nurse_office
급식실 school_cafeteria
과학실 science_lab
음악실 music_room
미술실 art_room
컴퓨터실 computer_lab
도서실 reading_room
매점 school_store
정문 main_gate
후문 back_gate
복도 hallway
계단 stairs %
엘리베이터 elevator
"""

THIRD_BATCH_ANIMALS = """
진돗개 Jindo_dog
푸들 poodle
치와와 chihuahua
불독 bulldog
페르시안고양이 Persian_cat
기니피그 guinea_pig
앵무 macaw
카나리아 canary +bird
타조 ostrich ostriches +bird
까치 magpie +bird
제비 swallow +bird
딱따구리 woodpecker +bird
꿩 pheasant +bird
"""

THIRD_BATCH_CLOTHES = """
카디건 cardigan
점퍼 windbreaker
티셔츠 tee
니트 knit_sweater
멜빵 suspenders %
레깅스 leggings %
스타킹 stockings %
운동복 tracksuit
체육복 gym_clothes %
우주복 spacesuit
유니폼 team_uniform
턱시도 tuxedo
가운 gown
모자티 hooded_shirt
털장갑 wool_mitten
실내화 indoor_shoe
축구화 soccer_cleat
등산화 hiking_boot
"""

THIRD_BATCH_PLANTS = """
단풍잎 maple_leaf maple_leaves
은행잎 ginkgo_leaf ginkgo_leaves
대나무 bamboo !
연꽃 lotus_flower
코스모스 cosmos !
진달래 azalea
개나리 forsythia !
무궁화 rose_of_Sharon roses_of_Sharon
해초 seaweed_plant
갈대 reed
새싹 sprout
나팔꽃 morning_glory morning_glories
"""
