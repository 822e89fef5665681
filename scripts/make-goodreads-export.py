#!/usr/bin/env python3
"""Writes a synthetic Goodreads library export (31 columns) for `make bench`.

It carries the real file's quirks: ISBNs as spreadsheet formulas (="..." and ="" when empty),
YYYY/MM/DD dates and blanks, My Rating 0 for unrated, reviews with <br/>, quotes, commas and line
breaks, series in titles, Additional Authors lists and shelves of the user's own.
Usage: make-goodreads-export.py ROWS OUT.csv
"""
import csv
import random
import sys

HEADER = [
    "Book Id", "Title", "Author", "Author l-f", "Additional Authors", "ISBN", "ISBN13", "My Rating",
    "Average Rating", "Publisher", "Binding", "Number of Pages", "Year Published", "Original Publication Year",
    "Date Read", "Date Added", "Bookshelves", "Bookshelves with positions", "Exclusive Shelf", "My Review",
    "Spoiler", "Private Notes", "Read Count", "Owned Copies", "Recommended For", "Recommended By",
    "Original Purchase Date", "Original Purchase Location", "Condition", "Condition Description", "BCID",
]
WORDS = "night river house stone winter garden shadow light city sea fire glass silver crown wolf".split()
GIVEN = "Ann Tamsyn Ursula Ken Mary Octavia Jorge Italo Toni Haruki".split()


def isbn13(n):
    body = "978" + str(n % 10**9).zfill(9)
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(body))
    return body + str((10 - total % 10) % 10)


def isbn10(thirteen):
    body = thirteen[3:12]
    total = sum(int(d) * (10 - i) for i, d in enumerate(body))
    check = (11 - total % 11) % 11
    return body + ("X" if check == 10 else str(check))


def main():
    rows, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(7)
    authors = max(1, rows * 3 // 10)
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        for i in range(rows):
            a = rng.randrange(authors)
            name = f"{GIVEN[a % len(GIVEN)]} Author{a}"
            title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 4))).title()
            if rng.random() < 0.2:
                title += f" (The {rng.choice(WORDS).title()} Cycle, #{rng.randint(1, 7)})"
            shelf = rng.choice(["read", "read", "to-read", "currently-reading", "did-not-finish"])
            thirteen = isbn13(i * 7 + 1) if rng.random() < 0.9 else ""
            review = ""
            if shelf == "read" and rng.random() < 0.3:
                review = 'Loved it.<br/><br/>"Quotes", commas,\nand a second line.'
            w.writerow([
                10_000_000 + i, title, name, f"Author{a}, {GIVEN[a % len(GIVEN)]}",
                f"Translator {rng.randrange(authors)}" if rng.random() < 0.1 else "",
                f'="{isbn10(thirteen)}"' if thirteen else '=""', f'="{thirteen}"' if thirteen else '=""',
                rng.randint(1, 5) if shelf == "read" else 0, "3.9", f"Publisher {rng.randrange(200)}",
                rng.choice(["Paperback", "Hardcover", "Kindle Edition"]), rng.randint(80, 900),
                rng.randint(1950, 2025), rng.randint(1800, 2025),
                f"20{rng.randint(10, 25)}/{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}" if shelf == "read" else "",
                f"20{rng.randint(10, 25)}/{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}",
                shelf if shelf == "did-not-finish" else "", "", shelf, review, "", "",
                1 if shelf == "read" else 0, rng.randint(0, 1), "", "", "", "", "", "", "",
            ])


if __name__ == "__main__":
    main()
