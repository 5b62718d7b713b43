/*
 * A tricktable bot in C99: the stdin/stdout line protocol with nothing but the C library.
 *
 * Build: cc -std=c99 -O2 -o bot bot.c   (or: make)
 * Run by tricktable as `./bot NAME` (the player's name is the last argument). It plays any
 * game legally: it answers a QUERY with the first legal action listed, and in `tricks` (whose
 * QUERY card lists nothing) it follows suit from the cards it holds.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 64
#define MAX_CARDS 64

static char hand[MAX_CARDS][4];
static int hand_size = 0;
static char led = 0; /* the suit led in the current trick, 0 before the lead */

/* Split "|TYPE|KEY|DATA...|END|" in place; returns the number of fields, -1 if not framed. */
static int split(char *line, char **fields) {
    size_t len = strlen(line);
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
    if (len < 7 || line[0] != '|' || strcmp(line + len - 5, "|END|") != 0) return -1;
    line[len - 5] = '\0';
    int n = 0;
    char *p = line + 1;
    while (n < MAX_FIELDS) {
        fields[n++] = p;
        char *bar = strchr(p, '|');
        if (bar == NULL) break;
        *bar = '\0';
        p = bar + 1;
    }
    return n;
}

static void set_hand(const char *text) {
    hand_size = 0;
    char copy[4 * MAX_CARDS];
    strncpy(copy, text, sizeof copy - 1);
    copy[sizeof copy - 1] = '\0';
    for (char *card = strtok(copy, " "); card && hand_size < MAX_CARDS; card = strtok(NULL, " ")) {
        strncpy(hand[hand_size], card, 3);
        hand[hand_size][3] = '\0';
        hand_size++;
    }
}

static void remove_card(const char *card) {
    for (int i = 0; i < hand_size; i++) {
        if (strcmp(hand[i], card) == 0) {
            strcpy(hand[i], hand[hand_size - 1]);
            hand_size--;
            return;
        }
    }
}

static void respond(const char *key, const char *data) {
    printf("|RESPONSE|%s|%s|END|\n", key, data);
    fflush(stdout);
}

int main(int argc, char **argv) {
    const char *me = argc > 1 ? argv[argc - 1] : "";
    char *line = NULL;
    size_t cap = 0;
    char *f[MAX_FIELDS];
    while (getline(&line, &cap, stdin) != -1) {
        int n = split(line, f);
        if (n < 2) continue;
        const char *kind = f[0], *key = f[1];
        if (strcmp(kind, "INFO") == 0) {
            if (strcmp(key, "cards") == 0) {
                set_hand(n > 2 ? f[2] : "");
            } else if (strcmp(key, "start trick") == 0) {
                led = 0;
            } else if (strcmp(key, "played") == 0 && n > 3) {
                const char *card = f[3];
                if (led == 0) led = card[strlen(card) - 1];
                if (strcmp(f[2], me) == 0) remove_card(card);
            } else if (strcmp(key, "end game") == 0) {
                break;
            }
        } else if (strcmp(kind, "QUERY") == 0) {
            if (strcmp(key, "card") == 0) {
                char first[4] = "";
                if (n > 2 && f[2][0] != '\0') {
                    /* The extended protocol lists the legal cards: take the first. */
                    sscanf(f[2], "%3s", first);
                } else {
                    int pick = 0;
                    for (int i = 0; i < hand_size; i++) {
                        if (led != 0 && hand[i][strlen(hand[i]) - 1] == led) {
                            pick = i;
                            break;
                        }
                    }
                    if (hand_size > 0) strcpy(first, hand[pick]);
                }
                respond("card", first);
            } else if (strcmp(key, "pass") == 0) {
                int count = n > 2 ? atoi(f[2]) : 0;
                char cards[4 * MAX_CARDS] = "";
                for (int i = 0; i < count && i < hand_size; i++) {
                    if (i > 0) strcat(cards, " ");
                    strcat(cards, hand[i]);
                }
                respond("pass", cards);
            } else {
                respond(key, n > 2 ? f[2] : "");
            }
        }
    }
    free(line);
    return 0;
}
