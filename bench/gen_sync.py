#!/usr/bin/env python3
"""The site bench/sync.sh serves (Python 3 standard library only).

    gen_sync.py DIR --base-url URL [--feeds 200] [--old-items 20] [--new-feeds 25]
                [--new-episodes 50] [--mean-size 3000000] [--seed 6]

writes under DIR:
    phase1/fNNN.xml      200 feeds of OLD_ITEMS items each, newest first; every enclosure exists
                         (media/old/fNNN-eNNN.mp3, 4 KiB each)
    phase2/fNNN.xml      the NEW_FEEDS feeds that change (every 200/25 = 8th one), each with its
                         old items and NEW_EPISODES / NEW_FEEDS new items on top
    media/new/fNNN-nNN.mp3  the new episodes: an ID3v2.4 header then random bytes, sizes spread
                         uniformly over MEAN_SIZE +- 1/6 (so about 2.5-3.5 MB)
    feeds.opml           the 200 feed URLs (BASE/feeds/fNNN.xml)
    serverlist           the same for podget ("URL bench fNNN")
    old-urls.txt         every old enclosure URL
    new-urls.txt         the new enclosure URLs (BASE/media/new/...)
    new.sha256           "SHA256  NAME" of each new episode, sorted by hash

The feed files are served from DIR/feeds (bench/sync.sh copies phase1 there, then phase2 over
it). Sizes and dates come from random.Random(seed) and a fixed instant; the audio bytes are
random (their hashes are in new.sha256). File names have a fixed width, so no URL is a substring
of another (podget looks URLs up in its log with grep -F).
"""

import argparse
import hashlib
import os
import random
from email.utils import formatdate
from xml.sax.saxutils import escape, quoteattr

NEWEST_OLD = 1764000000  # 2025-11-24: the newest old item; new items come a day or more after it
ID3 = b"ID3\x04\x00\x00\x00\x00\x00\x00"  # podcli sniffs for audio: an empty ID3v2.4 tag will do


def item(base_url, slug, guid, title, published, url, length):
    return (
        "<item>\n<title>%s</title>\n<guid isPermaLink=\"false\">%s</guid>\n<pubDate>%s</pubDate>\n"
        "<enclosure url=%s length=\"%d\" type=\"audio/mpeg\"/>\n<itunes:duration>%d</itunes:duration>\n"
        "<description>%s</description>\n</item>\n"
        % (escape(title), guid, formatdate(published, usegmt=True), quoteattr(url), length,
           length // 16000, escape("<p>%s, episode %s of %s</p>" % (title, guid, slug)))
    )


def feed(base_url, slug, items):
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">\n<channel>\n'
        "<title>Bench %s</title>\n<link>https://example.org/%s</link>\n"
        "<description>Feed %s of the sync benchmark</description>\n<language>en-us</language>\n"
        % (slug, slug, slug) + "".join(items) + "</channel>\n</rss>\n"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--feeds", type=int, default=200)
    parser.add_argument("--old-items", type=int, default=20)
    parser.add_argument("--new-feeds", type=int, default=25)
    parser.add_argument("--new-episodes", type=int, default=50)
    parser.add_argument("--mean-size", type=int, default=3000000)
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    if args.new_episodes % args.new_feeds or args.feeds % args.new_feeds:
        parser.error("--new-feeds must divide --feeds and --new-episodes")
    rng = random.Random(args.seed)
    base = args.base_url
    for sub in ("phase1", "phase2", "media/old", "media/new"):
        os.makedirs(os.path.join(args.dir, sub), exist_ok=True)

    old_urls, new_urls, hashes = [], [], []
    stride = args.feeds // args.new_feeds
    per_feed = args.new_episodes // args.new_feeds
    spread = args.mean_size // 6
    opml = ['<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n<head><title>sync bench</title></head>\n<body>\n']
    serverlist = []
    for f in range(args.feeds):
        slug = "f%03d" % f
        feed_url = "%s/feeds/%s.xml" % (base, slug)
        opml.append("<outline type=\"rss\" text=\"Bench %s\" xmlUrl=%s/>\n" % (slug, quoteattr(feed_url)))
        serverlist.append("%s bench %s\n" % (feed_url, slug))
        newest = NEWEST_OLD - rng.randrange(86400)
        old = []
        for e in range(args.old_items, 0, -1):
            name = "%s-e%03d.mp3" % (slug, e)
            url = "%s/media/old/%s" % (base, name)
            with open(os.path.join(args.dir, "media/old", name), "wb") as out:
                out.write(ID3 + rng.randbytes(4096 - len(ID3)))
            published = newest - (args.old_items - e) * 7 * 86400
            old.append(item(base, slug, "%s-e%03d" % (slug, e), "Old %d" % e, published, url, 4096))
            old_urls.append(url)
        with open(os.path.join(args.dir, "phase1", slug + ".xml"), "w", encoding="utf-8") as out:
            out.write(feed(base, slug, old))
        if f % stride:
            continue
        new = []
        for n in range(per_feed, 0, -1):
            name = "%s-n%02d.mp3" % (slug, n)
            url = "%s/media/new/%s" % (base, name)
            size = args.mean_size - spread + rng.randrange(2 * spread + 1)
            body = ID3 + os.urandom(size - len(ID3))
            with open(os.path.join(args.dir, "media/new", name), "wb") as out:
                out.write(body)
            hashes.append("%s  %s\n" % (hashlib.sha256(body).hexdigest(), name))
            new.append(item(base, slug, "%s-n%02d" % (slug, n), "New %d" % n, NEWEST_OLD + 86400 * (n + 1), url, size))
            new_urls.append(url)
        with open(os.path.join(args.dir, "phase2", slug + ".xml"), "w", encoding="utf-8") as out:
            out.write(feed(base, slug, new + old))
    opml.append("</body>\n</opml>\n")
    for name, lines in (("feeds.opml", opml), ("serverlist", serverlist), ("old-urls.txt", [u + "\n" for u in old_urls]),
                        ("new-urls.txt", [u + "\n" for u in new_urls]), ("new.sha256", sorted(hashes))):
        with open(os.path.join(args.dir, name), "w", encoding="utf-8") as out:
            out.writelines(lines)


if __name__ == "__main__":
    main()
