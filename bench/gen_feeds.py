#!/usr/bin/env python3
"""Deterministic podcast feeds for bench/feeds.sh (Python 3 standard library only).

    gen_feeds.py big OUT.xml [--items 20000] [--seed 1] [--base-url URL]
        one RSS 2.0 + iTunes feed (20,000 items is about 28 MB)
    gen_feeds.py many DIR --base-url URL [--feeds 200] [--total 87000] [--seed 2]
        DIR/feeds/feed-NNN.xml, each of 50-800 items (exactly TOTAL in all), and DIR/feeds.opml
        listing them as URL/feeds/feed-NNN.xml

The same arguments always give the same bytes: every choice comes from random.Random(seed), and
dates count back from a fixed instant. Items look like real ones: title, guid, link, pubDate
(RFC 822, with GMT and numeric zones), enclosure (url, length, type), itunes:duration in mixed
formats (HH:MM:SS, H:MM:SS, MM:SS, seconds), itunes:episode/season/episodeType/explicit,
itunes:image on some, a description of a few hundred bytes of entity-escaped HTML (with some
non-ASCII text), and for about a third of them a content:encoded CDATA section of about 1 KB.
Enclosure URLs point at BASE_URL/media/... (never fetched by the benchmark).
"""

import argparse
import os
import random
import sys
from email.utils import formatdate
from xml.sax.saxutils import escape, quoteattr

# The newest item's date: fixed, so the output does not depend on when it is generated.
NEWEST = 1764000000  # 2025-11-24
WORDS = (
    "podcast episode interview guest history science music story week news update history "
    "culture politics economy climate technology software open source community listener mail "
    "question answer season finale special bonus live recording studio microphone producer "
    "research archive library museum journey city river mountain coffee breakfast evening "
    "conversation debate review analysis background context timeline future past present "
    "café naïve résumé Zürich São Paulo Kraków Malmö — “quoted” ‘words’ … 日本 ünïcödé"
).split()
TOPICS = ("Tech", "History", "Science", "Culture", "News", "Music", "Sport", "Books", "Film", "Food")
ZONES = ("GMT", "+0000", "-0500", "+0100", "+0200", "-0800", "+0530")


def words(rng, count):
    return " ".join(rng.choice(WORDS) for _ in range(count))


def rfc822(timestamp, zone):
    """An RFC 822 date as feeds write it: 'Tue, 03 Jun 2008 11:05:30 GMT' or '... +0100'."""
    if zone == "GMT":
        return formatdate(timestamp, usegmt=True)
    sign = 1 if zone[0] == "+" else -1
    offset = sign * (int(zone[1:3]) * 3600 + int(zone[3:5]) * 60)
    text = formatdate(timestamp + offset, usegmt=True)  # the local wall-clock time in that zone
    return text[: -len("GMT")] + zone


def duration_text(rng, seconds):
    kind = rng.randrange(10)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    if kind < 4:
        return "%02d:%02d:%02d" % (h, m, s)
    if kind < 6:
        return "%d:%02d:%02d" % (h, m, s)
    if kind < 8:
        return "%d:%02d" % (h * 60 + m, s)  # MM:SS, minutes past 59 as many feeds write it
    return str(seconds)


def description_html(rng, base_url, number):
    """A few hundred bytes of HTML, as it appears (entity-escaped) inside <description>."""
    paragraphs = [
        "<p>%s <b>%s</b> %s.</p>" % (words(rng, rng.randint(6, 14)), words(rng, 2), words(rng, rng.randint(4, 10))),
        '<p>Links: <a href="%s/notes/%d?ref=feed&amp;utm_source=rss">show notes</a> &amp; '
        '<a href="https://example.org/%s">%s</a></p>' % (base_url, number, words(rng, 1), words(rng, 3)),
    ]
    if rng.random() < 0.5:
        items = "".join("<li>%s</li>" % words(rng, rng.randint(3, 7)) for _ in range(rng.randint(2, 3)))
        paragraphs.append("<ul>%s</ul>" % items)
    return "".join(paragraphs)


def content_html(rng, number):
    """About 1 KB of HTML for a content:encoded CDATA section."""
    parts = ["<h2>Episode %d</h2>" % number]
    while sum(map(len, parts)) < 950:
        parts.append("<p>%s <em>%s</em> %s</p>" % (words(rng, 12), words(rng, 3), words(rng, 10)))
    parts.append('<p><img src="https://images.example.org/%d.jpg" alt="cover &amp; art"/></p>' % number)
    return "\n".join(parts)


def write_feed(out, rng, title, base_url, slug, item_count):
    w = out.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n')
    w('<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" '
      'xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">\n')
    w("<channel>\n")
    w("<title>%s</title>\n" % escape(title))
    w("<link>https://example.org/%s</link>\n" % slug)
    w('<atom:link href=%s rel="self" type="application/rss+xml"/>\n' % quoteattr("%s/feeds/%s.xml" % (base_url, slug)))
    w("<description>%s</description>\n" % escape(description_html(rng, base_url, 0)))
    w("<language>en-us</language>\n")
    w("<itunes:author>%s</itunes:author>\n" % escape(words(rng, 2).title()))
    w('<itunes:image href="https://images.example.org/%s.jpg"/>\n' % slug)
    w('<itunes:category text=%s/>\n' % quoteattr(rng.choice(TOPICS)))
    w("<itunes:explicit>false</itunes:explicit>\n")
    w("<itunes:type>episodic</itunes:type>\n")
    published = NEWEST - rng.randrange(86400 * 30)
    for index in range(item_count):
        number = item_count - index
        episode_title = "%d: %s" % (number, words(rng, rng.randint(3, 9)).capitalize())
        seconds = rng.randint(90, 4 * 3600)
        length = seconds * rng.choice((16000, 24000, 32000)) + rng.randrange(100000)
        audio = rng.random() < 0.9
        kind, extension = ("audio/mpeg", "mp3") if audio else ("audio/x-m4a", "m4a")
        w("<item>\n")
        w("<title>%s</title>\n" % escape(episode_title))
        if rng.random() < 0.8:
            w('<guid isPermaLink="false">%s-%08x-%d</guid>\n' % (slug, rng.getrandbits(32), number))
        else:
            w("<guid>https://example.org/%s/episodes/%d</guid>\n" % (slug, number))
        w("<link>https://example.org/%s/episodes/%d</link>\n" % (slug, number))
        w("<pubDate>%s</pubDate>\n" % rfc822(published, rng.choice(ZONES)))
        w('<enclosure url=%s length="%d" type="%s"/>\n'
          % (quoteattr("%s/media/%s/%d.%s?source=rss&id=%d" % (base_url, slug, number, extension, number)),
             length, kind))
        w("<itunes:duration>%s</itunes:duration>\n" % duration_text(rng, seconds))
        w("<itunes:episode>%d</itunes:episode>\n" % number)
        if rng.random() < 0.5:
            w("<itunes:season>%d</itunes:season>\n" % (1 + number // 50))
        w("<itunes:episodeType>%s</itunes:episodeType>\n" % ("full" if rng.random() < 0.9 else "bonus"))
        w("<itunes:explicit>%s</itunes:explicit>\n" % ("true" if rng.random() < 0.1 else "false"))
        if rng.random() < 0.2:
            w('<itunes:image href="https://images.example.org/%s/%d.jpg"/>\n' % (slug, number))
        w("<description>%s</description>\n" % escape(description_html(rng, base_url, number)))
        if rng.random() < 0.3:
            w("<content:encoded><![CDATA[%s]]></content:encoded>\n" % content_html(rng, number))
        w("</item>\n")
        published -= rng.randint(3600, 86400 * 7)
    w("</channel>\n</rss>\n")


def feed_sizes(rng, count, total, low, high):
    """COUNT sizes in [LOW, HIGH] drawn uniformly, then nudged one by one to add up to TOTAL."""
    if not count * low <= total <= count * high:
        sys.exit("gen_feeds.py: %d feeds of %d-%d items cannot hold %d" % (count, low, high, total))
    sizes = [rng.randint(low, high) for _ in range(count)]
    step = 1 if sum(sizes) < total else -1
    index = 0
    while sum(sizes) != total:
        if low <= sizes[index % count] + step <= high:
            sizes[index % count] += step
        index += 1
    return sizes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    big = commands.add_parser("big", help="one large feed")
    big.add_argument("out")
    big.add_argument("--items", type=int, default=20000)
    big.add_argument("--seed", type=int, default=1)
    big.add_argument("--base-url", default="http://127.0.0.1:8080")
    many = commands.add_parser("many", help="many feeds and an OPML file listing them")
    many.add_argument("dir")
    many.add_argument("--base-url", required=True, help="where DIR is served, e.g. http://127.0.0.1:PORT")
    many.add_argument("--feeds", type=int, default=200)
    many.add_argument("--total", type=int, default=87000, help="items in all feeds together")
    many.add_argument("--min-items", type=int, default=50)
    many.add_argument("--max-items", type=int, default=800)
    many.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    base_url = args.base_url.rstrip("/")

    if args.command == "big":
        with open(args.out, "w", encoding="utf-8", newline="\n") as out:
            write_feed(out, random.Random(args.seed), "The Big Archive Show", base_url, "big", args.items)
        print("%s: %d items, %d bytes" % (args.out, args.items, os.path.getsize(args.out)))
        return

    rng = random.Random(args.seed)
    sizes = feed_sizes(rng, args.feeds, args.total, args.min_items, args.max_items)
    os.makedirs(os.path.join(args.dir, "feeds"), exist_ok=True)
    outlines = []
    total_bytes = 0
    for index, size in enumerate(sizes, 1):
        slug = "feed-%03d" % index
        title = "%s Weekly %d" % (rng.choice(TOPICS), index)
        path = os.path.join(args.dir, "feeds", slug + ".xml")
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            write_feed(out, random.Random(args.seed * 100000 + index), title, base_url, slug, size)
        total_bytes += os.path.getsize(path)
        outlines.append('    <outline type="rss" text=%s title=%s xmlUrl=%s/>\n'
                        % (quoteattr(title), quoteattr(title), quoteattr("%s/feeds/%s.xml" % (base_url, slug))))
    with open(os.path.join(args.dir, "feeds.opml"), "w", encoding="utf-8", newline="\n") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n'
                  "  <head><title>podcli benchmark</title></head>\n  <body>\n")
        out.writelines(outlines)
        out.write("  </body>\n</opml>\n")
    print("%s: %d feeds, %d items (%d-%d per feed), %d bytes"
          % (args.dir, len(sizes), sum(sizes), min(sizes), max(sizes), total_bytes))


if __name__ == "__main__":
    main()
