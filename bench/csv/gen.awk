# gen.awk: -> a CSV stream of SHAPE (sensor or wide) with N lines after the
# header; seeded, so every run reads the same bytes. -v format=jsonl: the
# same events as JSON Lines, for bench/ingest.sh (no header; the wide
# shape's quoted columns as strings, `""` as `\"`). shape=rec: type,ts,
# the 16-byte records of the record-sum floor (ten types A-J).
# awk -v shape=sensor -v n=2000000 -f bench/csv/gen.awk > sensor.csv
function jstr(s) {   # a CSV field's text as a JSON string
    gsub(/""/, "\\\"", s);
    return "\"" s "\"";
}
BEGIN {
    srand(18);
    t = 1700000000000;
    json = format == "jsonl";
    if (shape == "rec") {
        if (!json)
            print "type,ts";
        for (i = 0; i < n; i++) {
            ty = substr("ABCDEFGHIJ", 1 + int(rand() * 10), 1);
            if (json)
                printf "{\"type\":\"%s\",\"ts\":%d}\n", ty, i;
            else
                printf "%s,%d\n", ty, i;
        }
    } else if (shape == "wide" && json) {
        split("Site A, north|Site B, south|Depot 7", site, "|");
        split("calm, steady|fan on, door open|\"\"check\"\" later", note, "|");
        for (i = 0; i < n; i++) {
            t += 1 + int(rand() * 999);
            s = site[1 + int(rand() * 3)];
            nt = note[rand() < 0.0625 ? 3 : 1 + int(rand() * 2)];
            printf "{\"type\":\"%s\",\"id\":%d,\"site\":%s,\"value\":%.2f,\"temp\":%.1f,\"hum\":%.3f,\"ok\":%s,\"units\":%d,\"label\":\"unit %d, rack %d\",\"note\":%s,\"level\":%d,\"time\":%.0f}\n",
                substr("THP", 1 + int(rand() * 3), 1), int(rand() * 100000), jstr(s),
                rand() * 100, 15 + rand() * 20, rand(), rand() < 0.5 ? "true" : "false",
                int(rand() * 1000), int(rand() * 50), int(rand() * 40), jstr(nt),
                int(rand() * 9), t;
        }
    } else if (shape == "wide") {
        split("Site A, north|Site B, south|Depot 7", site, "|");
        split("calm, steady|fan on, door open|\"\"check\"\" later", note, "|");
        print "type,id,site,value,temp,hum,ok,units,label,note,level,time";
        for (i = 0; i < n; i++) {
            t += 1 + int(rand() * 999);
            s = site[1 + int(rand() * 3)];
            nt = note[rand() < 0.0625 ? 3 : 1 + int(rand() * 2)];   # 1/16 with a "" quote
            printf "%s,%d,\"%s\",%.2f,%.1f,%.3f,%s,%d,\"unit %d, rack %d\",\"%s\",%d,%.0f\n",
                substr("THP", 1 + int(rand() * 3), 1), int(rand() * 100000), s,
                rand() * 100, 15 + rand() * 20, rand(), rand() < 0.5 ? "true" : "false",
                int(rand() * 1000), int(rand() * 50), int(rand() * 40), nt,
                int(rand() * 9), t;
        }
    } else {
        if (!json)
            print "type,id,value,time";
        for (i = 0; i < n; i++) {
            t += 1 + int(rand() * 999);
            printf json ? "{\"type\":\"%s\",\"id\":%d,\"value\":%.1f,\"time\":%.0f}\n" : "%s,%d,%.1f,%.0f\n",
                rand() < 0.5 ? "T" : "H", int(rand() * 1000), rand() * 100, t;
        }
    }
}
