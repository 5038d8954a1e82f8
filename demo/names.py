"""Names, regions and clubs the demo and synthetic federations draw from (data only)."""
from __future__ import annotations

SPANISH_SURNAMES = ["García", "Martínez", "López", "Sánchez", "Pérez", "Gómez", "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez", "Romero", "Alonso", "Gutiérrez", "Navarro", "Torres", "Domínguez", "Vázquez", "Ramos", "Gil", "Ramírez", "Serrano", "Blanco", "Molina", "Morales", "Suárez", "Ortega", "Delgado", "Castro", "Ortiz", "Rubio", "Marín", "Sanz", "Núñez", "Iglesias", "Medina", "Garrido", "Cortés", "Castillo", "Santos", "Lozano", "Guerrero", "Cano", "Prieto", "Méndez", "Cruz", "Calvo", "Gallego", "León", "Márquez", "Herrera", "Peña", "Flores", "Cabrera", "Campos", "Vega", "Fuentes", "Carrasco", "Díez", "Caballero", "Reyes", "Nieto", "Aguilar", "Pascual", "Santana", "Herrero", "Lorenzo", "Hidalgo", "Montero", "Ibáñez", "Giménez", "Durán", "Benítez", "Mora", "Vicente", "Arias", "Vargas", "Carmona", "Crespo", "Román", "Pastor", "Soto", "Sáez", "Velasco", "Moya", "Parra", "Esteban", "Bravo", "Gallardo", "Rojas", "Pardo", "Merino", "Franco", "Espinosa", "Izquierdo", "Lara", "Rivas", "Rivera", "Casado", "Arroyo", "Redondo", "Camacho", "Rey", "Vera", "Otero", "Luque", "Galán", "Montes", "Ríos", "Sierra", "Segura", "Carrillo", "Marcos", "Soriano", "Mendoza", "Robles", "Vallejo", "Muñiz", "Beltrán", "Quintana", "Echevarría", "Goñi", "Peñalver", "Ordóñez", "Báez", "Zúñiga", "Úbeda", "Ávila", "Cáceres"]
CATALAN_SURNAMES = ["Puig", "Ferrer", "Vilaró", "Soler", "Vila", "Serra", "Pujol", "Roca", "Font", "Casals", "Mas", "Bosch", "Riera", "Sala", "Torrent", "Coll", "Prat", "Costa", "Vidal", "Camps", "Grau", "Oliver", "Sabaté", "Canals", "Comas", "Badia", "Rovira", "Pla", "Bertran", "Batlle", "Ribas", "Subirats", "Farré", "Solé", "Miró", "Gené", "Cardona", "Vallès", "Pagès", "Boix", "Fàbregas", "Rosell", "Roig", "Masó", "Sunyer", "Esteve", "Rigau", "Tarrés", "Guàrdia", "Balcells", "Clotet", "Nadal", "Carbó", "Rius", "Vives", "Capdevila", "Oller", "Ferrés", "Planas", "Xirau", "Queralt", "Trias", "Gispert", "Bonet", "Vilanova", "Cirera", "Alsina", "Ventura", "Martorell", "Fuster", "Domènech", "Bofill", "Tàpies", "Castellví"]
PORTUGUESE_SURNAMES = ["Silva", "Santos", "Ferreira", "Pereira", "Oliveira", "Costa", "Rodrigues", "Martins", "Jesus", "Sousa", "Fernandes", "Gonçalves", "Gomes", "Lopes", "Marques", "Alves", "Almeida", "Ribeiro", "Pinto", "Carvalho", "Teixeira", "Moreira", "Correia", "Mendes", "Nunes", "Soares", "Vieira", "Monteiro", "Cardoso", "Rocha", "Raposo", "Neves", "Coelho", "Cruz", "Cunha", "Pires", "Ramos", "Reis", "Simões", "Antunes", "Matos", "Fonseca", "Machado", "Araújo", "Barbosa", "Tavares", "Lourenço", "Castro", "Figueiredo", "Azevedo", "Freitas", "Conceição", "Magalhães", "Brandão", "Guimarães", "Assunção", "Patrício", "Loureiro", "Valente", "Damião", "Galvão", "Leitão", "Falcão", "Serrão"]

GIVEN_NAMES: dict[str, dict[str, tuple[str, ...]]] = {
    "es": {
        "M": (
            "Antonio", "José", "Manuel", "Francisco", "David", "Juan", "Javier", "José Luis",
            "Daniel", "Jesús", "Carlos", "Alejandro", "Miguel", "José Antonio", "Rafael",
            "Pablo", "Pedro", "Ángel", "Sergio", "Fernando", "Jorge", "Luis", "Alberto",
            "Álvaro", "Adrián", "Diego", "Raúl", "Iván", "Rubén", "Óscar", "Andrés", "Joaquín",
            "Ramón", "Enrique", "Víctor", "Íñigo", "Hugo", "Mario", "Marcos", "Nicolás",
            "Tomás", "Gonzalo", "Iker", "Julián", "Agustín", "Sebastián", "José Mª",
            "Fco. Javier", "Jesús Ángel",
        ),
        "F": (
            "María", "Carmen", "Ana", "Laura", "Lucía", "Isabel", "Marta", "Elena", "Cristina",
            "Paula", "Sara", "Raquel", "Beatriz", "Patricia", "Mª José", "Mª Carmen",
            "Mª Ángeles", "Inés", "Sofía", "Irene", "Alba", "Andrea", "Nerea", "Begoña",
            "Rocío", "Verónica", "Mónica", "Pilar", "Ainhoa", "Leire",
        ),
    },
    "ca": {
        "M": (
            "Jordi", "Joan", "Josep", "Pere", "Marc", "Pau", "Àngel", "Oriol", "Xavier", "Lluís",
            "Ferran", "Arnau", "Martí", "Quim", "Jaume", "Albert", "Enric", "Sergi", "Gerard",
            "Bernat", "Roger", "Guillem", "Àlex", "Ramon", "Joan Carles", "Francesc",
            "Joaquim", "Miquel", "Narcís", "Nil", "Josep Mª",
        ),
        "F": (
            "Núria", "Montserrat", "Laia", "Mireia", "Anna", "Marta", "Roser", "Meritxell",
            "Neus", "Glòria", "Mercè", "Júlia", "Aina", "Berta", "Clàudia", "Ona", "Queralt",
            "Marina", "Àngels", "Maria Dolors",
        ),
    },
    "pt": {
        "M": (
            "João", "José", "António", "Manuel", "Francisco", "Luís", "Pedro", "Rui", "Nuno",
            "Tiago", "Gonçalo", "Diogo", "André", "Fábio", "Sérgio", "Hélder", "Rogério",
            "Vítor", "Joaquim", "Bernardo", "Duarte", "Martim", "Tomás", "Simão", "Afonso",
            "João Paulo",
        ),
        "F": (
            "Maria", "Ana", "Inês", "Beatriz", "Joana", "Mariana", "Catarina", "Sofia",
            "Leonor", "Constança", "Margarida", "Teresa", "Conceição", "Fátima", "Luísa",
            "Raquel", "Helena", "Mafalda", "Maria João",
        ),
    },
}

# Territorial federations: (region, weight, language mix, clubs).
SPANISH_REGIONS: tuple[tuple[str, int, str, tuple[str, ...]], ...] = (
    ("Catalunya", 30, "ca", (
        "CE Barcelona-UGA", "CE Sabadell", "CE Terrassa", "CE Figueres", "CE Vilafranca",
        "CE Sant Martí", "CE Lleida", "CE Reus Deportiu", "CE Mollerussa", "CE Badalona",
    )),
    ("Madrid", 18, "es", (
        "CA Chamartín", "CA Collado Villalba", "CA Alcobendas", "CA Moratalaz", "CA Alcalá",
        "CA Getafe",
    )),
    ("Andalucía", 14, "es", (
        "CA Linares", "CA Sevilla", "CA Málaga Miramar", "CA Jaén", "CA Granada", "CA Córdoba",
    )),
    ("Galicia", 8, "es", ("CX Vigo", "CX Coruña", "CX Ourense", "CX Compostela")),
    ("Comunitat Valenciana", 12, "es", (
        "CA València", "CE Alcoi", "CA Elx", "CE Castelló", "CA Benidorm",
    )),
    ("Euskadi", 5, "es", ("Donostia Kultur", "CA Bilbao", "CA Vitoria-Gasteiz")),
    ("Aragón", 4, "es", ("CA Zaragoza", "CA Huesca")),
    ("Castilla y León", 4, "es", ("CA Valladolid", "CA Salamanca", "CA León")),
    ("Asturias", 3, "es", ("CA Gijón", "CA Oviedo 93")),
    ("Illes Balears", 3, "ca", ("CE Palma", "CE Manacor", "CE Maó")),
)
# Portuguese districts, for correspondence players (federation POR).
PORTUGUESE_DISTRICTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Lisboa", ("Clube de Xadrez de Lisboa", "GD Dias Ferreira")),
    ("Porto", ("Clube de Xadrez do Porto", "Académico do Porto")),
    ("Braga", ("Xadrez Clube de Braga",)),
    ("Coimbra", ("Associação Académica de Coimbra",)),
    ("Aveiro", ("Beira-Mar Xadrez",)),
    ("Setúbal", ("Clube de Xadrez de Setúbal",)),
    ("Faro", ("Xadrez Clube de Faro",)),
    ("Leiria", ("Clube de Xadrez de Leiria",)),
    ("Viseu", ("Xadrez Viseu",)),
    ("Évora", ("Clube de Xadrez de Évora",)),
    ("Santarém", ("Xadrez Ribatejo",)),
    ("Bragança", ("Clube de Xadrez de Bragança",)),
)
