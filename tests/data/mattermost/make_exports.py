"""Write the hand-made Mattermost exports of this folder and what each one must not leak.

    python tests/data/mattermost/make_exports.py

Everything here is written by hand for curator (no curator code, no Faker): fictional people
of a fictional company, in the shapes of Mattermost's server model (server/public/model:
Post, PostMetadata, PostEmbed, MessageAttachment, Reaction, FileInfo, User, Channel, Team,
Permalink/PreviewPost) and of the OpenGraph struct Mattermost fills link previews with
(github.com/dyatlov/go-opengraph), laid out as the AI plugin's evals ThreadExport
(posts, channel, team, users, file_infos, files). Python only does what a hand cannot:
base64 in its variants and a UTF-16 encoding.

Outputs (a test checks they equal this script's output):
- channel-export.json            every phenomenon of issue 12 item 5; must import cleanly
- channel-export.originals.json  every personal string that must not survive, and the facts
                                 (replies, reactions, permalinks, files) a test must check
- binary-attachment.json         one post with a PNG whose bytes name a person: not text in
                                 any encoding, so an import must refuse it, never keep it raw
- binary-attachment.originals.json
"""

from __future__ import annotations

import base64
import json
import struct
import sys
import zlib
from pathlib import Path
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
SERVER = "chat.fjordline-robotics.com"
TEAM = "fjordline"
T0 = 1728288000000  # 2024-10-07T08:00:00Z


def minutes(n: float) -> int:
    return T0 + int(n * 60_000)


def proxied(url: str) -> str:
    """The server's image proxy URL for an external image (ImageProxyType "local")."""
    return f"https://{SERVER}/api/v4/image?url={quote(url, safe='')}"


def permalink(post_id: str) -> str:
    return f"https://{SERVER}/{TEAM}/pl/{post_id}"


# ---------------------------------------------------------------- ids (26 chars of [a-z0-9])
TEAM_ID = "t8fjq3rxk7bnzdwe5m1ocyhs4a"
CHANNEL_ID = "c4hd7wq2mpxk9rz3ntsb8ve6ya"
INVITE_ID = "i6pw2nz8qd4kx7rm3tbc9vhs1e"
U = {
    "ingrid": "u1sg8kq4rm7zx2wn5dpc3hbe9a",
    "kwame": "u2mk5tr8wq3zn6xb1dhc4pse7y",
    "will": "u3wh7bq2kx5rm8zn4dpc1tse6a",
    "may": "u4mf2zr9kq6wx3bn7dpc5hse1y",
    "rose": "u5rn8kq3wx6zm1bn4dpc7tse2a",
    "bill": "u6bc4zr7kq1wx5bn8dpc2hse3y",
    "hope": "u7ha9kq5wx2zm6bn3dpc8tse4a",
    "dmitri": "u8dv6zr3kq9wx1bn5dpc4hse5y",
    "phan": "u9pt3kq8wx5zm2bn6dpc1tse7a",
    "deploybot": "ub07zr2kq4wx8bn1dpc6hse8yq",
}
P = {  # post ids by role
    "release": "pa1r3lq8zx5kw2mn7dbc4hse9y",
    "thanks": "pa2t5kq8wx3zm6bn1dpc4rse7a",
    "willdo": "pa3w8zr2kq5wx1bn4dpc7hse3y",
    "covering": "pa4c1kq6wx9zm3bn8dpc2tse5a",
    "maybe": "pa5m4zr8kq2wx6bn1dpc9hse4y",
    "nice": "pa6n7kq1wx4zm8bn2dpc5tse9a",
    "summary": "pa7s2zr5kq8wx3bn6dpc1hse2y",
    "blog": "pb1g9kq3wx6zm2bn5dpc8tse1a",
    "vendor": "pc1v5zr1kq4wx9bn2dpc6hse8y",
    "addresses": "pc2a8kq7wx1zm5bn9dpc3tse6a",
    "handover": "pc3h3zr6kq9wx2bn7dpc1hse4y",
    "renee": "pc4r6kq2wx8zm4bn1dpc7tse3a",
    "jenkins": "pc5j9zr4kq1wx7bn3dpc8hse5y",
    "deploy": "pd1d2kq9wx3zm7bn4dpc6tse8a",
    "handoff": "pe1h5zr7kq6wx4bn8dpc2hse1y",
    "added": "pf1a8kq4wx2zm9bn6dpc3tse2a",
    "files": "pg1f1zr9kq3wx5bn2dpc7hse6y",
    "oncall": "pg2o4kq5wx7zm1bn3dpc9tse4a",
    "lyon": "pg3l7zr3kq8wx6bn9dpc4hse7y",
}
OUTSIDE_POST = "px9o2kq7wx4zm8bn5dpc1tse3y"  # a post of Dmitri's older thread, not in the export
F = {
    "handover": "f1h6kq2wx9zm3bn7dpc5tse8ya",
    "calibration": "f2c9zr5kq1wx8bn4dpc2hse6ya",
    "contract": "f3m2kq8wx4zm6bn1dpc9tse3ya",
    "oncall": "f4o5zr1kq7wx3bn8dpc6hse2ya",
    "lyon": "f5l8kq4wx2zm9bn5dpc1tse7ya",
    "whiteboard": "f6w1zr8kq5wx4bn2dpc3hse9ya",
}

# ---------------------------------------------------------------- users


def user(
    key: str,
    username: str,
    first: str,
    last: str,
    email: str,
    nickname: str = "",
    position: str = "",
    props: dict | None = None,
    **extra: object,
) -> dict:
    record = {
        "id": U[key],
        "create_at": minutes(-500_000),
        "update_at": minutes(-1_000),
        "delete_at": 0,
        "username": username,
        "auth_service": "",
        "email": email,
        "nickname": nickname,
        "first_name": first,
        "last_name": last,
        "position": position,
        "roles": "system_user",
        "props": props or {},
        "notify_props": {
            "desktop": "mention",
            "email": "true",
            "first_name": "false",
            "mention_keys": "",
            "push": "mention",
            "channel": "true",
        },
        "locale": "en",
        "timezone": {
            "automaticTimezone": "Europe/Oslo",
            "manualTimezone": "",
            "useAutomaticTimezone": "true",
        },
        "disable_welcome_email": False,
    }
    record.update(extra)
    return record


def custom_status(text: str, emoji: str, expires: str) -> str:
    return json.dumps(
        {"emoji": emoji, "text": text, "duration": "date_and_time", "expires_at": expires}
    )


USERS = {
    U["ingrid"]: user(
        "ingrid",
        "isolberg",
        "Ingrid",
        "Solberg",
        "ingrid.solberg@fjordline-robotics.com",
        nickname="Inga",
        position="Head of Controls",
        props={
            "customStatus": custom_status(
                "Off until 14 Oct, ask Oskar Lindqvist", "palm_tree", "2024-10-14T06:00:00Z"
            ),
            "recentCustomStatuses": json.dumps(
                [
                    {
                        "emoji": "car",
                        "text": "Driving Kwame to the airport",
                        "duration": "one_hour",
                        "expires_at": "2024-09-30T15:00:00Z",
                    }
                ]
            ),
            "git_user": "isolberg-fr",
        },
        notify_props={
            "desktop": "mention",
            "email": "true",
            "first_name": "true",
            "mention_keys": "ingrid,inga,solberg,@isolberg",
            "push": "mention",
            "channel": "true",
        },
    ),
    U["kwame"]: user(
        "kwame",
        "kwame.mensah",
        "Kwame",
        "Mensah",
        "kwame.mensah@fjordline-robotics.com",
        nickname="KM",
        position="Firmware Engineer",
        props={
            "git_user": "kmensah-gh",
            "customStatus": custom_status(
                "Pairing with Rose on CAN timings", "wrench", "2024-10-07T16:00:00Z"
            ),
        },
        timezone={
            "automaticTimezone": "Africa/Accra",
            "manualTimezone": "",
            "useAutomaticTimezone": "true",
        },
    ),
    U["will"]: user(
        "will",
        "will.hartley",
        "Will",
        "Hartley",
        "will.hartley@fjordline-robotics.com",
        nickname="",
        position="QA Lead",
        props={"git_user": "whartley"},
        locale="en-GB",
    ),
    U["may"]: user(
        "may",
        "may.ferreira",
        "May",
        "Ferreira",
        "may.ferreira@fjordline-robotics.com",
        nickname="Maysa",
        position="Lab Technician",
        locale="pt-BR",
    ),
    U["rose"]: user(
        "rose",
        "rose.n",
        "Rose",
        "Nakashima",
        "rose.nakashima@fjordline-robotics.com",
        nickname="",
        position="Embedded Developer",
        props={"git_user": "rosenakashima"},
    ),
    U["bill"]: user(
        "bill",
        "bcarrigan",
        "Bill",
        "Carrigan",
        "bill.carrigan@fjordline-robotics.com",
        nickname="",
        position="Procurement",
    ),
    U["hope"]: user(
        "hope",
        "hope.achterberg",
        "Hope",
        "Achterberg",
        "hope.achterberg@fjordline-robotics.com",
        nickname="",
        position="Supply Chain Manager",
        locale="nl",
    ),
    U["dmitri"]: user(
        "dmitri",
        "dvolkov",
        "Dmitri",
        "Volkov",
        "dmitri.volkov@fjordline-robotics.com",
        nickname="Dima",
        position="Test Engineer",
        delete_at=minutes(-2_000),
    ),
    U["phan"]: user(
        "phan",
        "phan.thuha",
        "Thu Ha",
        "Phan",
        "phan.thuha@fjordline-robotics.com",
        nickname="Ha",
        position="Hardware Engineer",
    ),
    U["deploybot"]: user(
        "deploybot",
        "deploybot",
        "",
        "",
        "deploybot@localhost",
        position="",
        is_bot=True,
        bot_description="Deploy notices for Ingrid Solberg's controls team; owner @kwame.mensah",
        roles="system_user",
    ),
}

# ---------------------------------------------------------------- posts


def post(key: str, author: str, at: float, message: str, root: str = "", **extra: object) -> dict:
    record = {
        "id": P[key],
        "create_at": minutes(at),
        "update_at": minutes(at),
        "edit_at": 0,
        "delete_at": 0,
        "is_pinned": False,
        "user_id": U[author],
        "channel_id": CHANNEL_ID,
        "root_id": P[root] if root else "",
        "original_id": "",
        "message": message,
        "type": "",
        "props": {},
        "hashtags": "",
        "file_ids": [],
        "pending_post_id": "",
        "reply_count": 0,
        "last_reply_at": 0,
        "participants": None,
        "metadata": {},
    }
    record.update(extra)
    return record


def reaction(who: str, key: str, emoji: str, at: float) -> dict:
    return {
        "user_id": U[who],
        "post_id": P[key],
        "emoji_name": emoji,
        "create_at": minutes(at),
        "update_at": minutes(at),
        "delete_at": 0,
        "remote_id": "",
        "channel_id": CHANNEL_ID,
    }


RELEASE_URL = "https://github.com/fjordline/fr200-firmware/releases/tag/v3.2"
RELEASE_IMAGE = (
    "https://opengraph.githubassets.com/6f1c2a9d0b4e/fjordline/fr200-firmware/releases/tag/v3.2"
)
BLOG_URL = "https://ingridsolberg.no/blog/calibrating-the-fr200"
BLOG_IMAGE = "https://ingridsolberg.no/img/ingrid-solberg-at-the-bench.jpg"
AVATAR = "https://avatars.githubusercontent.com/u/4411872?v=4"
JENKINS_AVATAR = "https://jenkins.fjordline-robotics.com/user/kmensah/avatar.png"

RELEASE_MESSAGE = (
    f"@channel firmware 3.2 for the FR-200 is tagged: {RELEASE_URL}\n"
    "Big thanks to @kwame.mensah for the jitter fix and to @will.hartley for two weeks of soak "
    "tests. The config is plain JSON now, see https://docs.python.org/3/library/json.html"
)


def opengraph(
    url: str,
    title: str,
    description: str,
    site: str,
    image: str,
    width: int,
    height: int,
    og_type: str = "object",
    article: dict | None = None,
) -> dict:
    data = {
        "type": og_type,
        "url": url,
        "title": title,
        "description": description,
        "determiner": "",
        "site_name": site,
        "locale": "",
        "locales_alternate": None,
        "images": [
            {
                "url": image,
                "secure_url": proxied(image),
                "type": "",
                "width": width,
                "height": height,
            }
        ],
        "audios": None,
        "videos": None,
    }
    if article is not None:
        data["article"] = article
    return {"type": "opengraph", "url": url, "data": data}


def attachment_post_files(*keys: str) -> list[dict]:
    return [FILE_INFOS[F[k]] for k in keys]


POSTS_IN_ORDER = [
    post(
        "release",
        "ingrid",
        0,
        RELEASE_MESSAGE,
        reply_count=6,
        last_reply_at=minutes(40),
        has_reactions=True,
        metadata={
            "embeds": [
                opengraph(
                    RELEASE_URL,
                    "Release v3.2 · fjordline/fr200-firmware",
                    "Jitter fix by @kmensah-gh (Kwame Mensah), soak tests by @whartley.",
                    "GitHub",
                    RELEASE_IMAGE,
                    1200,
                    600,
                )
            ],
            "images": {
                RELEASE_IMAGE: {"width": 1200, "height": 600, "format": "png", "frame_count": 0}
            },
            "reactions": [
                reaction("kwame", "release", "+1", 2),
                reaction("will", "release", "tada", 3),
                reaction("rose", "release", "+1", 4),
                reaction("dmitri", "release", "heart", 5),
            ],
        },
    ),
    post(
        "thanks",
        "kwame",
        6,
        "Thanks Ingrid! My branch is at "
        "https://github.com/kmensah-gh/fr200-firmware/tree/fix-jitter if anyone wants the "
        "history. Rose, can you double-check the CAN timings?",
        root="release",
    ),
    post(
        "willdo",
        "rose",
        9,
        "Will do. Will, can you send me the soak logs? I'll compare them with the ones from May.",
        root="release",
    ),
    post(
        "covering",
        "will",
        12,
        "sent! if anyone needs me this week I'm on +44 7911 204877. May is covering the lab "
        "while I'm out.",
        root="release",
    ),
    post(
        "maybe",
        "may",
        15,
        "Covering the lab ✔ I may be late on Tuesday though, dentist.",
        root="release",
        has_reactions=True,
        metadata={"reactions": [reaction("will", "maybe", "pray", 16)]},
    ),
    post("nice", "bill", 20, "nice work kwame 👏 and thx ingrid for the write-up", root="release"),
    post(
        "summary",
        "ingrid",
        40,
        f"Summary for anyone who missed it is in my first note: {permalink(P['release'])}\n"
        f"Older context is in Dmitri Volkov's thread from September: {permalink(OUTSIDE_POST)}",
        root="release",
        props={"previewed_post": P["release"]},
        metadata={
            "embeds": [
                {
                    "type": "permalink",
                    "data": {
                        "post_id": P["release"],
                        "post": {
                            "id": P["release"],
                            "create_at": minutes(0),
                            "update_at": minutes(0),
                            "edit_at": 0,
                            "delete_at": 0,
                            "is_pinned": False,
                            "user_id": U["ingrid"],
                            "channel_id": CHANNEL_ID,
                            "root_id": "",
                            "original_id": "",
                            "message": RELEASE_MESSAGE,
                            "type": "",
                            "props": {},
                            "hashtags": "",
                            "pending_post_id": "",
                            "reply_count": 6,
                            "last_reply_at": minutes(40),
                            "participants": None,
                            "metadata": {},
                        },
                        "team_name": TEAM,
                        "channel_display_name": "Controls firmware",
                        "channel_type": "O",
                        "channel_id": CHANNEL_ID,
                    },
                }
            ]
        },
    ),
    post(
        "blog",
        "kwame",
        60,
        f"Ingrid wrote up the whole calibration story on her blog: {BLOG_URL}",
        metadata={
            "embeds": [
                opengraph(
                    BLOG_URL,
                    "Calibrating the FR-200 arm",
                    "Kwame Mensah and I spent three weeks chasing a 3 ms jitter. Here is what "
                    "we found. — Ingrid Solberg",
                    "Ingrid Solberg",
                    BLOG_IMAGE,
                    1200,
                    630,
                    og_type="article",
                    article={
                        "published_time": "2024-10-05T09:00:00Z",
                        "modified_time": None,
                        "expiration_time": None,
                        "section": "",
                        "tags": ["robotics", "firmware"],
                        "authors": [
                            {
                                "first_name": "Ingrid",
                                "last_name": "Solberg",
                                "username": "isolberg",
                                "gender": "",
                            }
                        ],
                    },
                )
            ],
            "images": {
                BLOG_IMAGE: {"width": 1200, "height": 630, "format": "jpeg", "frame_count": 0}
            },
        },
    ),
    post(
        "vendor",
        "bill",
        90,
        "Bill here: the vendor bill for the servo batch came in. "
        "[Ingrid's cost sheet](https://docs.google.com/spreadsheets/d/1xK9fLq2T7mWv0aR3uZ/edit) "
        "has the numbers.\n"
        '```\ngit log --author="Kwame Mensah" --since=2024-09-01 -- drivers/can/\n```\n'
        "And `SERVO_OWNER=hope.achterberg` is still set in the CI env. I hope Hope doesn't mind.",
        reply_count=4,
        last_reply_at=minutes(120),
    ),
    post(
        "addresses",
        "hope",
        95,
        "I don't mind :) but please use my work address hope.achterberg@fjordline-robotics.com, "
        "not my gmail (hope.achterberg1990@gmail.com). My Dutch number is +31 6 4821 7730 if "
        "it's urgent.",
        root="vendor",
        props={"mentionHighlightDisabled": True},
    ),
    post(
        "handover",
        "dmitri",
        100,
        "Handing over my CAN analyser to Phan Thu Ha before I leave. Oskar Lindqvist in the "
        "Gothenburg office has the spare one.",
        root="vendor",
    ),
    post(
        "renee",
        "phan",
        105,
        "Got it, thanks Dmitri. @renee.dufresne is not on this team, so I'll email Renée "
        "Dufresne directly.",
        root="vendor",
    ),
    post(
        "jenkins",
        "kwame",
        120,
        "Build #812 of fr200-firmware FAILED. Last commit by Rose Nakashima "
        "<rose.nakashima@fjordline-robotics.com>: "
        '"fix CAN timing for ROSE NAKASHIMA\'s bench"',
        root="vendor",
        props={
            "from_webhook": "true",
            "override_username": "Jenkins (Kwame Mensah)",
            "override_icon_url": proxied(JENKINS_AVATAR),
            "webhook_display_name": "Jenkins",
            "disable_group_highlight": True,
        },
    ),
    post(
        "deploy",
        "deploybot",
        150,
        "",
        type="slack_attachment",
        props={
            "from_bot": "true",
            "attachments": [
                {
                    "id": 0,
                    "fallback": "Deploy of fr200-firmware 3.2 by Kwame Mensah succeeded",
                    "color": "#2eb886",
                    "pretext": "Deploy finished for @kwame.mensah",
                    "author_name": "Kwame Mensah",
                    "author_link": "https://github.com/kmensah-gh",
                    "author_icon": AVATAR,
                    "title": "fr200-firmware 3.2",
                    "title_link": RELEASE_URL,
                    "text": "Rolled out to 14 arms in Bergen. Approved by Ingrid Solberg.",
                    "fields": [
                        {"title": "Approver", "value": "Ingrid Solberg", "short": True},
                        {
                            "title": "On call",
                            "value": "Will Hartley (+44 7911 204877)",
                            "short": True,
                        },
                        {"title": "Arms", "value": 14, "short": True},
                    ],
                    "image_url": "",
                    "thumb_url": "",
                    "footer": "deploybot · requested by @isolberg",
                    "footer_icon": "",
                    "ts": 1728297000,
                }
            ],
        },
    ),
    post(
        "handoff",
        "ingrid",
        180,
        "Handoff plan for next week is in the card. WILL HARTLEY AND MAY FERREIRA: the lab keys "
        "are with reception.",
        has_reactions=True,
        props={
            "handoff": {
                "from": "Ingrid Solberg",
                "to": "Oskar Lindqvist",
                "backup": ["Will Hartley", "May Ferreira"],
            },
            "card": json.dumps(
                {
                    "owner": "Hope Achterberg",
                    "phone": "+31 6 4821 7730",
                    "notes": "ask Bill Carrigan for the badge",
                }
            ),
            "reviewed_by": "isolberg",
        },
        metadata={
            "reactions": [
                reaction("will", "handoff", "white_check_mark", 181),
                reaction("may", "handoff", "white_check_mark", 182),
            ]
        },
    ),
    post(
        "added",
        "ingrid",
        200,
        "@phan.thuha added to the channel by @isolberg.",
        type="system_add_to_channel",
        props={
            "addedUserId": U["phan"],
            "addedUsername": "phan.thuha",
            "userId": U["ingrid"],
            "username": "isolberg",
        },
    ),
    post(
        "files",
        "rose",
        240,
        "Attaching Ingrid's handover notes, the calibration log and May's contract notes.",
        file_ids=[F["handover"], F["calibration"], F["contract"]],
        reply_count=2,
        last_reply_at=minutes(250),
    ),
    post(
        "oncall",
        "will",
        245,
        "on-call file for Bill, as promised",
        root="files",
        file_ids=[F["oncall"]],
    ),
    post(
        "lyon",
        "phan",
        250,
        "notes from the Lyon visit (the laptop saved them as UTF-16, sorry)",
        root="files",
        file_ids=[F["lyon"]],
    ),
]

# -------------------------------------------------------- files: text, then base64 in every variant

FILE_TEXTS = {
    "handover": (
        "Handover from Ingrid Solberg to Oskar Lindqvist\n"
        "Call Ingrid on +47 912 48 306 if the arm drifts.\n"
        "Kwame's fork: github.com/kmensah-gh/fr200-firmware\n"
    ),
    "calibration": (
        "date,operator,arm,offset_ms\n"
        "2024-10-02,Kwame Mensah,FR200-07,3.1\n"
        "2024-10-03,Rose Nakashima,FR200-07,0.4\n"
        "2024-10-04,MAY FERREIRA,FR200-09,0.25\n"
    ),
    "contract": (
        "Contract renewal notes for May Ferreira (lab technician).\n"
        "Renewal approved by Hope Achterberg on 2 October; Bill Carrigan to send the letter to "
        "Rua das Flores 118, 4050-262 Porto, Portugal.\n"
        "May's personal phone: +351 912 345 078. Personal mail: maysa.ferreira@sapo.pt\n"
    ),
    "oncall": '{"primary": "Will Hartley", "phone": "+44 7911 204877", "backup": "Bill '
    'Carrigan", "week": 41, "note": "pager >> phone"}\n',
    "lyon": "Réunion à Lyon avec Renée Dufresne et Phan Thu Ha.\n"
    "Rappeler Renée au 06 71 42 93 18 avant vendredi.\n",
}
FILE_NAMES = {
    "handover": ("ingrid-solberg-handover.txt", "text/plain"),
    "calibration": ("calibration-log.csv", "text/csv"),
    "contract": ("may-ferreira-contract-notes.txt", "text/plain"),
    "oncall": ("oncall-week41.json", "application/json"),
    "lyon": ("notes-lyon.txt", "text/plain"),
}
FILE_ENCODINGS = {  # how each file's bytes are written in "files"
    "handover": "base64 standard, padded (what Go's encoding/json writes for []byte)",
    "calibration": "base64 standard, padding stripped",
    "contract": "base64 standard, wrapped at 76 characters with \\n (MIME)",
    "oncall": "base64 URL-safe alphabet (- and _), padded",
    "lyon": "UTF-16 text with a byte-order mark, base64 standard",
}


def file_bytes(key: str) -> bytes:
    text = FILE_TEXTS[key]
    return text.encode("utf-16") if key == "lyon" else text.encode("utf-8")


def file_payload(key: str) -> str:
    raw = file_bytes(key)
    if key == "calibration":
        return base64.b64encode(raw).decode().rstrip("=")
    if key == "contract":
        encoded = base64.b64encode(raw).decode()
        return "\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76))
    if key == "oncall":
        return base64.urlsafe_b64encode(raw).decode()
    return base64.b64encode(raw).decode()


def file_info(
    key: str, post_key: str, author: str, at: float, name: str, mime: str, size: int
) -> dict:
    return {
        "id": F[key],
        "user_id": U[author],
        "post_id": P[post_key],
        "channel_id": CHANNEL_ID,
        "create_at": minutes(at),
        "update_at": minutes(at),
        "delete_at": 0,
        "name": name,
        "extension": name.rsplit(".", 1)[-1],
        "size": size,
        "mime_type": mime,
        "mini_preview": None,
        "remote_id": "",
        "archived": False,
    }


FILE_OWNERS = {
    "handover": ("files", "rose", 240),
    "calibration": ("files", "rose", 240),
    "contract": ("files", "rose", 240),
    "oncall": ("oncall", "will", 245),
    "lyon": ("lyon", "phan", 250),
}
FILE_INFOS = {
    F[k]: file_info(k, *FILE_OWNERS[k], *FILE_NAMES[k], len(file_bytes(k))) for k in FILE_TEXTS
}
for _post in POSTS_IN_ORDER:
    if _post["file_ids"]:
        _post["metadata"]["files"] = [FILE_INFOS[f] for f in _post["file_ids"]]

CHANNEL = {
    "id": CHANNEL_ID,
    "create_at": minutes(-400_000),
    "update_at": minutes(-1_000),
    "delete_at": 0,
    "team_id": TEAM_ID,
    "type": "O",
    "display_name": "Controls firmware",
    "name": "controls-firmware",
    "header": "Ingrid's team · runbook: https://wiki.fjordline-robotics.com/controls · "
    "escalations: Kwame Mensah (+233 24 418 9032)",
    "purpose": "FR-200 arm firmware. Ask @isolberg before merging to main.",
    "last_post_at": minutes(250),
    "total_msg_count": 412,
    "extra_update_at": 0,
    "creator_id": U["ingrid"],
    "scheme_id": None,
    "props": None,
    "group_constrained": None,
    "shared": None,
    "total_msg_count_root": 131,
    "policy_id": None,
    "last_root_post_at": minutes(240),
}
TEAM_RECORD = {
    "id": TEAM_ID,
    "create_at": minutes(-600_000),
    "update_at": minutes(-5_000),
    "delete_at": 0,
    "display_name": "Fjordline Robotics",
    "name": TEAM,
    "description": "Fjordline Robotics AS, Bergen",
    "email": "it-admin@fjordline-robotics.com",
    "type": "I",
    "company_name": "Fjordline Robotics AS",
    "allowed_domains": "fjordline-robotics.com",
    "invite_id": INVITE_ID,
    "allow_open_invite": False,
    "scheme_id": None,
    "group_constrained": None,
    "policy_id": None,
    "cloud_limits_archived": False,
}


def channel_export() -> dict:
    return {
        "posts": {p["id"]: p for p in POSTS_IN_ORDER},
        "channel": CHANNEL,
        "team": TEAM_RECORD,
        "users": USERS,
        "file_infos": FILE_INFOS,
        "files": {F[k]: file_payload(k) for k in FILE_TEXTS},
    }


# ---------------------------------------------------------------- what must not survive

ORIGINALS = {
    "people": [
        # every case form and part that appears anywhere in the export
        "Ingrid Solberg",
        "Ingrid",
        "INGRID",
        "ingrid",
        "Solberg",
        "Inga",
        "Kwame Mensah",
        "Kwame",
        "kwame",
        "Mensah",
        "KM",
        "Will Hartley",
        "WILL HARTLEY",
        "Hartley",
        "May Ferreira",
        "MAY FERREIRA",
        "Ferreira",
        "Maysa",
        "Rose Nakashima",
        "ROSE NAKASHIMA",
        "Nakashima",
        "Bill Carrigan",
        "Carrigan",
        "Hope Achterberg",
        "Achterberg",
        "Dmitri Volkov",
        "Dmitri",
        "Volkov",
        "Dima",
        "Phan Thu Ha",
        "Thu Ha",
        "Phan",
        "Oskar Lindqvist",
        "Oskar",
        "Lindqvist",
        "Renée Dufresne",
        "Renée",
        "Dufresne",
    ],
    "usernames": [
        "isolberg",
        "kwame.mensah",
        "will.hartley",
        "may.ferreira",
        "rose.n",
        "bcarrigan",
        "hope.achterberg",
        "dvolkov",
        "phan.thuha",
        "renee.dufresne",
        "kmensah",
    ],
    "emails": [
        "ingrid.solberg@fjordline-robotics.com",
        "kwame.mensah@fjordline-robotics.com",
        "will.hartley@fjordline-robotics.com",
        "may.ferreira@fjordline-robotics.com",
        "rose.nakashima@fjordline-robotics.com",
        "bill.carrigan@fjordline-robotics.com",
        "hope.achterberg@fjordline-robotics.com",
        "dmitri.volkov@fjordline-robotics.com",
        "phan.thuha@fjordline-robotics.com",
        "hope.achterberg1990@gmail.com",
        "maysa.ferreira@sapo.pt",
        "it-admin@fjordline-robotics.com",
    ],
    "phones": [
        "+44 7911 204877",
        "+31 6 4821 7730",
        "+47 912 48 306",
        "+233 24 418 9032",
        "06 71 42 93 18",
        "+351 912 345 078",
    ],
    "github_handles": ["isolberg-fr", "kmensah-gh", "whartley", "rosenakashima"],
    "addresses": ["Rua das Flores 118, 4050-262 Porto"],
    "hosts_and_organisation": [
        SERVER,
        "fjordline-robotics.com",
        "ingridsolberg.no",
        "jenkins.fjordline-robotics.com",
        "wiki.fjordline-robotics.com",
        "Fjordline Robotics",
        "fjordline",
    ],
    "file_names": ["ingrid-solberg-handover.txt", "may-ferreira-contract-notes.txt"],
    "ids": sorted(
        [
            TEAM_ID,
            CHANNEL_ID,
            INVITE_ID,
            OUTSIDE_POST,
            *U.values(),
            *P.values(),
            *(F[k] for k in FILE_TEXTS),
        ]
    ),
    "percent_encoded": [quote(BLOG_IMAGE, safe=""), quote(JENKINS_AVATAR, safe="")],
}


def originals() -> dict:
    order = [p["id"] for p in POSTS_IN_ORDER]
    return {
        "export": "channel-export.json",
        "expect": "imports",
        "note": "Fictional people of a fictional company, written by hand (make_exports.py). "
        "Every string under 'originals' must be absent (case-insensitively) from the store's "
        "fixture, labels and any bundle after `curator import`; ids are listed too since they "
        "are the source's ids. The bare first names Will, May, Rose, Bill and Hope are also "
        "ordinary words: the facts under 'word_names' say where they are names (must go) and "
        "where they are words (must stay).",
        "originals": ORIGINALS,
        "word_names": [
            {
                "post": order.index(P["willdo"]),
                "name_gone": "Will, can you",
                "word_kept": "Will do.",
            },
            {
                "post": order.index(P["willdo"]),
                "name_gone": None,
                "word_kept": "the ones from May.",
            },
            {"post": order.index(P["covering"]), "name_gone": "May is covering", "word_kept": None},
            {"post": order.index(P["maybe"]), "name_gone": None, "word_kept": "I may be late"},
            {"post": order.index(P["thanks"]), "name_gone": "Rose, can you", "word_kept": None},
            {
                "post": order.index(P["vendor"]),
                "name_gone": "Bill here",
                "word_kept": "the vendor bill",
            },
            {
                "post": order.index(P["vendor"]),
                "name_gone": "I hope Hope doesn't",
                "word_kept": "I hope ",
            },
            {"post": order.index(P["oncall"]), "name_gone": "file for Bill,", "word_kept": None},
        ],
        "kept": {
            "public_hosts": [
                "github.com",
                "docs.python.org",
                "docs.google.com",
                "avatars.githubusercontent.com",
                "opengraph.githubassets.com",
            ],
            "public_urls": ["https://docs.python.org/3/library/json.html"],
            "note": "github.com/fjordline/... is the company's public repository; "
            "github.com/kmensah-gh/... and github.com/<git_user> name a person: host kept, "
            "handle rewritten.",
        },
        "structure": {
            "posts": len(order),
            "order": "posts listed by create_at; every index below is a position in that order",
            "replies": {
                str(order.index(p["id"])): order.index(p["root_id"])
                for p in POSTS_IN_ORDER
                if p["root_id"]
            },
            "reactions": {
                str(order.index(p["id"])): len(p["metadata"].get("reactions", []))
                for p in POSTS_IN_ORDER
                if p["metadata"].get("reactions")
            },
            "permalinks": [
                {
                    "post": order.index(P["summary"]),
                    "target": order.index(P["release"]),
                    "in_export": True,
                    "note": "the /pl/<id> link and metadata.embeds[0].data.post_id / "
                    "props.previewed_post must name the anonymised id of the target post",
                },
                {
                    "post": order.index(P["summary"]),
                    "target": None,
                    "in_export": False,
                    "note": "points outside the export: its id is rewritten consistently but "
                    "matches no post",
                },
            ],
            "link_previews": [
                {"post": order.index(P["release"]), "image_proxy": True},
                {
                    "post": order.index(P["blog"]),
                    "image_proxy": True,
                    "note": "host, title, description, site_name, article.authors and the "
                    "percent-encoded image URL all name Ingrid Solberg",
                },
            ],
            "deleted_user": U["dmitri"],
            "bot_user": U["deploybot"],
            "files": {
                F[k]: {
                    "name": FILE_NAMES[k][0],
                    "encoding": FILE_ENCODINGS[k],
                    "text": FILE_TEXTS[k],
                }
                for k in FILE_TEXTS
            },
        },
    }


# ---------------------------------------------------------------- the binary attachment


def png_with_author(author: str) -> bytes:
    """A 2x2 grey PNG whose tEXt chunk names its author: binary bytes that hold personal data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    pixels = zlib.compress(b"\x00\x80\x80\x00\x80\x80")
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 0, 0, 0, 0))
        + chunk(b"tEXt", b"Author\x00" + author.encode("latin-1"))
        + chunk(b"IDAT", pixels)
        + chunk(b"IEND", b"")
    )


def binary_export() -> dict:
    image = png_with_author("Ingrid Solberg")
    info = {
        "id": F["whiteboard"],
        "user_id": U["ingrid"],
        "post_id": P["release"],
        "channel_id": CHANNEL_ID,
        "create_at": minutes(300),
        "update_at": minutes(300),
        "delete_at": 0,
        "name": "whiteboard-ingrid.png",
        "extension": "png",
        "size": len(image),
        "mime_type": "image/png",
        "width": 2,
        "height": 2,
        "has_preview_image": True,
        "mini_preview": None,
        "remote_id": "",
        "archived": False,
    }
    message = post(
        "release",
        "ingrid",
        300,
        "photo of the whiteboard from today's session",
        file_ids=[F["whiteboard"]],
        metadata={"files": [info]},
    )
    return {
        "posts": {message["id"]: message},
        "channel": CHANNEL,
        "team": TEAM_RECORD,
        "users": {U["ingrid"]: USERS[U["ingrid"]]},
        "file_infos": {F["whiteboard"]: info},
        "files": {F["whiteboard"]: base64.b64encode(image).decode()},
    }


def binary_originals() -> dict:
    return {
        "export": "binary-attachment.json",
        "expect": "refused",
        "note": "The only attachment is a PNG whose tEXt chunk holds 'Author: Ingrid Solberg'. "
        "It is not text in any encoding, so it cannot be rewritten: the import must fail with "
        "one line naming the file (whiteboard-ingrid.png or its id) and exit 2, leaving the "
        "store unchanged; it must never be kept raw.",
        "originals": {
            "people": ["Ingrid Solberg", "Ingrid", "Solberg"],
            "usernames": ["isolberg"],
            "emails": ["ingrid.solberg@fjordline-robotics.com"],
            "file_names": ["whiteboard-ingrid.png"],
        },
    }


def outputs() -> dict[str, str]:
    def dump(value: dict) -> str:
        return json.dumps(value, indent=2, ensure_ascii=False) + "\n"

    for ids in (U, P, F):
        assert all(len(v) == 26 and v.isalnum() and v == v.lower() for v in ids.values()), ids
    return {
        "channel-export.json": dump(channel_export()),
        "channel-export.originals.json": dump(originals()),
        "binary-attachment.json": dump(binary_export()),
        "binary-attachment.originals.json": dump(binary_originals()),
    }


def main() -> int:
    for name, text in outputs().items():
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
