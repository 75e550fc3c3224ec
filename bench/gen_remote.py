#!/usr/bin/env python3
"""Data for bench/import.sh and bench/remote.sh (Python 3 standard library only).

    gen_remote.py antennapod OUT.db [--feeds 200] [--episodes 20000] [--seed 25]
        an AntennaPod database export (the tables of AntennaPod's PodDBAdapter, database version
        3110000, as Tests/podcliTests/ImportLibraryTests.swift makes them) in WAL mode, as the app
        leaves it: FEEDS feeds of EPISODES / FEEDS episodes each, every one with a description of
        a few hundred bytes; about a third played, a tenth started (a position and a last-played
        time), a queue of 50, 100 favourites, per-feed speed, skip intro and ending on a quarter
        of the feeds, auto-download off on some.
    gen_remote.py account DIR --base-url URL [--feeds 200] [--episodes 20000] [--seed 25]
        what an account on a gpodder.net server holds, and the feeds it points at:
        DIR/feeds/fNNN.xml   FEEDS feeds of EPISODES / FEEDS items (served from BASE_URL/feeds/)
        DIR/feeds.opml       the same feeds, for podcli import
        DIR/subscriptions.json   the feed URLs, as one device's subscription upload ({"add": [...]})
        DIR/actions.json     one episode action per episode, as the mygpo API takes them (podcast,
                             episode, guid, action, timestamp, started/position/total for a play):
                             80 % play (a third of them to the end), 10 % download, 5 % delete,
                             5 % new; timestamps spread over the year before a fixed instant.

The same arguments always give the same bytes (random.Random(seed), fixed instants). Enclosures
point at BASE_URL/media/... and are never fetched.
"""

import argparse
import json
import os
import random
import sqlite3
import sys
import time
from xml.sax.saxutils import quoteattr

sys.dont_write_bytecode = True  # no __pycache__ left in bench/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_sync import feed, item  # noqa: E402 (beside this script)

NEWEST = 1764000000  # 2025-11-24, the newest episode and the newest action
YEAR = 365 * 86400
DURATIONS = (900, 1800, 2700, 3600, 5400)
WORDS = "podcast episode interview guest history science music story week news café naïve Zürich 日本".split()

# PodDBAdapter's tables (database version 3110000): read from the string ImportLibraryTests makes
# them with, so the benchmark's export and the tests' have the same layout.
IMPORT_TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "podcliTests",
                            "ImportLibraryTests.swift")


def antennapod_tables():
    with open(IMPORT_TESTS, encoding="utf-8") as f:
        source = f.read()
    start = source.index('"""', source.index("static let antennaPodCurrent")) + 3
    return source[start:source.index('"""', start)]


def words(rng, count):
    return " ".join(rng.choice(WORDS) for _ in range(count))


def antennapod(args):
    if os.path.exists(args.out):
        sys.exit("gen_remote.py: %s exists" % args.out)
    rng = random.Random(args.seed)
    per_feed = args.episodes // args.feeds
    db = sqlite3.connect(args.out)
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript(antennapod_tables())
    feeds, items, media, played_ids = [], [], [], []
    for f in range(1, args.feeds + 1):
        speed = (1.25, 1.5, 2.0)[f % 3] if f % 4 == 0 else -1.0
        feeds.append((f, "Sendung %03d — %s" % (f, words(rng, 3)), "https://feeds.example/f%03d.xml" % f,
                      "https://example.org/f%03d" % f, words(rng, 30), "Author %d" % f, "en",
                      "https://example.org/f%03d.jpg" % f, (0, 1, 2)[f % 3], speed,
                      30 if f % 4 == 0 else 0, 15 if f % 8 == 0 else 0))
        for e in range(per_feed):
            item_id = (f - 1) * per_feed + e + 1
            published = NEWEST - rng.randrange(YEAR)
            duration = rng.choice(DURATIONS)
            kind = rng.randrange(10)
            read, position, last_played, completed = -1, 0, 0, 0
            if kind < 3:
                read, last_played = 1, (published + rng.randrange(86400, 30 * 86400)) * 1000
                completed = last_played
                played_ids.append(item_id)
            elif kind < 4:
                read, position = 0, rng.randrange(60, duration - 60) * 1000
                last_played = (published + rng.randrange(86400, 30 * 86400)) * 1000
            elif kind < 7:
                read = 0
            items.append((item_id, "Folge %d: %s" % (e, words(rng, 5)), published * 1000, read,
                          "https://example.org/f%03d/%d" % (f, e), "<p>%s</p>" % words(rng, 60), item_id, f,
                          "urn:f%03d:e%03d" % (f, e)))
            media.append((item_id, duration * 1000, "https://media.example/f%03d/e%03d.mp3" % (f, e), position,
                          duration * 16000, "audio/mpeg", completed, item_id, last_played))
    db.executemany(
        "INSERT INTO Feeds (id, title, download_url, link, description, author, language, image_url, auto_download,"
        " feed_playback_speed, feed_skip_intro, feed_skip_ending) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", feeds)
    db.executemany(
        "INSERT INTO FeedItems (id, title, pubDate, read, link, description, media, feed, item_identifier)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", items)
    db.executemany(
        "INSERT INTO FeedMedia (id, duration, download_url, position, filesize, mime_type, playback_completion_date,"
        " feeditem, last_played_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", media)
    unplayed = [i[0] for i in items if i[3] != 1]
    queue = rng.sample(unplayed, 50)
    db.executemany("INSERT INTO Queue VALUES (?, ?, ?)",
                   [(place, item_id, (item_id - 1) // per_feed + 1) for place, item_id in enumerate(queue)])
    db.executemany("INSERT INTO Favorites VALUES (?, ?, ?)",
                   [(n, item_id, (item_id - 1) // per_feed + 1)
                    for n, item_id in enumerate(rng.sample(range(1, len(items) + 1), 100), start=1)])
    db.commit()
    db.close()


def account(args):
    rng = random.Random(args.seed)
    per_feed = args.episodes // args.feeds
    base = args.base_url
    os.makedirs(os.path.join(args.dir, "feeds"), exist_ok=True)
    opml = ['<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n<head><title>remote bench</title></head>\n<body>\n']
    subscriptions, actions = [], []
    for f in range(args.feeds):
        slug = "f%03d" % f
        feed_url = "%s/feeds/%s.xml" % (base, slug)
        subscriptions.append(feed_url)
        opml.append("<outline type=\"rss\" text=\"Bench %s\" xmlUrl=%s/>\n" % (slug, quoteattr(feed_url)))
        items = []
        for e in range(per_feed):
            guid = "%s-e%03d" % (slug, e)
            url = "%s/media/%s.mp3" % (base, guid)
            duration = rng.choice(DURATIONS)
            published = NEWEST - YEAR - rng.randrange(YEAR)
            items.append(item(base, slug, guid, "Episode %d" % e, published, url, duration * 16000))
            when = NEWEST - rng.randrange(YEAR)
            action = {"podcast": feed_url, "episode": url, "guid": guid, "device": "phone",
                      "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(when))}
            kind = rng.randrange(20)
            if kind < 16:
                position = duration if kind < 5 else rng.randrange(1, duration - 31)
                action.update(action="play", started=0, position=position, total=duration)
            else:
                action["action"] = ("download", "download", "delete", "new")[kind - 16]
            actions.append(action)
        with open(os.path.join(args.dir, "feeds", slug + ".xml"), "w", encoding="utf-8") as out:
            out.write(feed(base, slug, items))
    opml.append("</body>\n</opml>\n")
    with open(os.path.join(args.dir, "feeds.opml"), "w", encoding="utf-8") as out:
        out.writelines(opml)
    with open(os.path.join(args.dir, "subscriptions.json"), "w", encoding="utf-8") as out:
        json.dump({"add": subscriptions, "remove": []}, out)
    with open(os.path.join(args.dir, "actions.json"), "w", encoding="utf-8") as out:
        json.dump(actions, out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser("antennapod")
    export.add_argument("out")
    remote = commands.add_parser("account")
    remote.add_argument("dir")
    remote.add_argument("--base-url", required=True)
    for sub in (export, remote):
        sub.add_argument("--feeds", type=int, default=200)
        sub.add_argument("--episodes", type=int, default=20000)
        sub.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    if args.episodes % args.feeds:
        parser.error("--feeds must divide --episodes")
    antennapod(args) if args.command == "antennapod" else account(args)


if __name__ == "__main__":
    main()
